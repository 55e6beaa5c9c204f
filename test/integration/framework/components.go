package framework

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// StopComponent stops one component of the stack (as named by hack/local-up.sh, e.g.
// "kruise-controller") and waits for it to exit.
func (c *Cluster) StopComponent(t testing.TB, name string) {
	t.Helper()
	if err := c.script(stackDownTimeout, "local-down.sh", name); err != nil {
		t.Fatalf("stop %s: %v", name, err)
	}
}

// KillComponent kills one component of the stack with SIGKILL, as a crash or an OOM
// kill would, and waits until it is gone. Start it again with StartComponent (or
// StartKruiseAPIServer).
func (c *Cluster) KillComponent(t testing.TB, name string) {
	t.Helper()
	pidFile := filepath.Join(c.LocalDir, "pids", name+".pid")
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("kill %s: %v", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("kill %s: pid file %s: %v", name, pidFile, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s (pid %d): %v", name, pid, err)
	}
	WaitFor(t, 30*time.Second, func() (bool, error) {
		// Gone, or a zombie its (already exited) starter left unreaped.
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		return err != nil || strings.Contains(string(stat), ") Z "), nil
	})
	if err := os.Remove(pidFile); err != nil {
		t.Fatalf("kill %s: %v", name, err)
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
	return parseMetric(resp.Body, metric)
}

// KubeAPIServerMetrics scrapes kube-apiserver's /metrics as cluster admin, keyed as
// Metrics does.
func (c *Cluster) KubeAPIServerMetrics(t testing.TB, metric string) map[string]float64 {
	t.Helper()
	body, err := c.Client.CoreV1().RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		t.Fatalf("scraping kube-apiserver: %v", err)
	}
	return parseMetric(bytes.NewReader(body), metric)
}

// parseMetric reads the samples of one metric from the Prometheus text format.
func parseMetric(r io.Reader, metric string) map[string]float64 {
	out := map[string]float64{}
	s := bufio.NewScanner(r)
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
