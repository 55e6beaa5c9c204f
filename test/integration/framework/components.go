package framework

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// StopComponent stops one component of the stack (as named by hack/local-up.sh, e.g.
// "kruise-controller") and waits for it to exit.
func (c *Cluster) StopComponent(t testing.TB, name string) {
	t.Helper()
	if err := c.script(stackDownTimeout, "local-down.sh", name); err != nil {
		t.Fatalf("stop %s: %v", name, err)
	}
}

// StartComponent starts one component with the flags hack/local-up.sh uses and waits
// until it is ready; extra environment (e.g. KRUISE_CONTROLLER_ARGS=...) is passed on.
func (c *Cluster) StartComponent(t testing.TB, name string, env ...string) {
	t.Helper()
	saved := c.env
	c.env = append(append([]string(nil), c.env...), env...)
	defer func() { c.env = saved }()
	if err := c.script(stackUpTimeout, "local-up.sh", "start", name); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
}

// Metrics scrapes a component's plain-HTTP /metrics and returns every sample whose
// name is metric, keyed by its label set as printed (e.g. `{code="200",method="POST"}`).
func (c *Cluster) Metrics(t testing.TB, component, metric string) map[string]float64 {
	t.Helper()
	port, ok := c.Ports[component]
	if !ok {
		t.Fatalf("no port known for %s", component)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		t.Fatalf("scraping %s: %v", component, err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	s := bufio.NewScanner(resp.Body)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		line := s.Text()
		if !strings.HasPrefix(line, metric) {
			continue
		}
		rest := strings.TrimPrefix(line, metric)
		if rest == "" || (rest[0] != '{' && rest[0] != ' ') {
			continue // a longer metric name with the same prefix
		}
		i := strings.LastIndexByte(rest, ' ')
		v, err := strconv.ParseFloat(rest[i+1:], 64)
		if err != nil {
			continue
		}
		out[strings.TrimSpace(rest[:i])] = v
	}
	return out
}
