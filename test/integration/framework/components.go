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
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/internal/localstack"
)

// StopComponent stops one component of the stack (as localstack names it, e.g.
// "kruise-controller", "kruise-apiserver-1") and waits for it to exit.
func (c *Cluster) StopComponent(t testing.TB, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), stackDownTimeout)
	defer cancel()
	if err := c.Stack.Stop(ctx, name); err != nil {
		t.Fatalf("stop %s: %v", name, err)
	}
}

// KillComponent kills one component of the stack with SIGKILL, as a crash or an OOM
// kill would, and waits until it is gone. Start it again with StartComponent (or
// StartKruiseAPIServer).
func (c *Cluster) KillComponent(t testing.TB, name string) {
	t.Helper()
	if err := c.Stack.Kill(name); err != nil {
		t.Fatal(err)
	}
}

// StartComponent starts one component with the flags `make up` uses and waits until it
// is ready; extra environment settings (e.g. KRUISE_CONTROLLER_ARGS=...) apply to this
// start only.
func (c *Cluster) StartComponent(t testing.TB, name string, env ...string) {
	t.Helper()
	st := c.Stack
	if len(env) > 0 {
		o, err := c.Stack.Options.WithEnv(env...)
		if err != nil {
			t.Fatalf("start %s: %v", name, err)
		}
		st = localstack.New(o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stackUpTimeout)
	defer cancel()
	if err := st.Start(ctx, name); err != nil {
		printTail(os.Stderr, filepath.Join(c.LocalDir, "logs", "local-up.log"), 30)
		t.Fatalf("start %s: %v", name, err)
	}
}

// RestartKruiseControllers stops every kruise-controller of the stack, starts each
// again with env (e.g. "KRUISE_CONTROLLER_ARGS=--feature-gates=X=true"; none: the
// stack's defaults) and waits until one leads with synced informers.
func (c *Cluster) RestartKruiseControllers(t testing.TB, env ...string) {
	t.Helper()
	for _, name := range c.Stack.KruiseControllers() {
		c.StopComponent(t, name)
	}
	for _, name := range c.Stack.KruiseControllers() {
		c.StartComponent(t, name, env...)
	}
	c.WaitKruiseControllerReady(t, 2*time.Minute)
}

// WaitKruiseControllerReady waits until a kruise-controller answers /readyz: it leads
// and its informers have synced, so it reconciles again. StartComponent waits for
// /healthz only, which a process still waiting for the lease passes too; a test that
// stopped the controller waits here so that the tests after it find one at work.
func (c *Cluster) WaitKruiseControllerReady(t testing.TB, timeout time.Duration) {
	t.Helper()
	client := &http.Client{Timeout: 5 * time.Second}
	WaitFor(t, timeout, func() (bool, error) {
		var errs []string
		for _, name := range c.Stack.KruiseControllers() {
			resp, err := client.Get(fmt.Sprintf("http://127.0.0.1:%d/readyz", c.Ports[name]))
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true, nil
			}
			errs = append(errs, fmt.Sprintf("%s /readyz: %s", name, resp.Status))
		}
		return false, fmt.Errorf("no kruise-controller is ready: %s", strings.Join(errs, "; "))
	})
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

// KubeAPIServerMetricSum is the sum of kube-apiserver's samples of metric whose labels
// contain each of labels (written as in the text format: name="x").
func (c *Cluster) KubeAPIServerMetricSum(t testing.TB, metric string, labels ...string) float64 {
	t.Helper()
	return sumMatching(c.KubeAPIServerMetrics(t, metric), labels)
}

// MetricSum is the sum of component's samples of metric whose labels contain every
// one of labels (e.g. `verb="PATCH"`), as KubeAPIServerMetricSum for our components.
func (c *Cluster) MetricSum(t testing.TB, component, metric string, labels ...string) float64 {
	t.Helper()
	return sumMatching(c.Metrics(t, component, metric), labels)
}

// ControllerWrites is kruise-controller's count of its own API writes so far, keyed
// "resource verb" (events, on their own client, and Lease renewals, a fixed background
// cost, left out): the write budget tests take it before and after what they measure.
func (c *Cluster) ControllerWrites(t testing.TB) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for labels, v := range c.Metrics(t, "kruise-controller", "kruise_controller_api_writes_total") {
		resource, verb := labelValue(labels, "resource"), labelValue(labels, "verb")
		if resource != "leases" {
			out[resource+" "+verb] += v
		}
	}
	return out
}

// labelValue reads one label from a printed label set like {a="1",b="2"} (the keys of
// Metrics).
func labelValue(labels, name string) string {
	_, rest, ok := strings.Cut(labels, name+`="`)
	if !ok {
		return ""
	}
	value, _, _ := strings.Cut(rest, `"`)
	return value
}

func sumMatching(samples map[string]float64, labels []string) float64 {
	var n float64
samples:
	for l, v := range samples {
		for _, want := range labels {
			if !strings.Contains(l, want) {
				continue samples
			}
		}
		n += v
	}
	return n
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
