package stack

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Scrape reads a component's plain-HTTP /metrics (kruise-controller, kwok) and returns
// every sample named metric, keyed by its printed label set (`{a="1",b="2"}`).
func (s *Stack) Scrape(ctx context.Context, component, metric string) (map[string]float64, error) {
	port, ok := s.Ports[component]
	if !ok {
		return nil, fmt.Errorf("no port known for %s", component)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://127.0.0.1:%d/metrics", port), nil)
	if err != nil {
		return nil, fmt.Errorf("scraping %s: %w", component, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scraping %s: %w", component, err)
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), metric)
		if !ok || rest == "" || (rest[0] != '{' && rest[0] != ' ') {
			continue
		}
		i := strings.LastIndexByte(rest, ' ')
		if v, err := strconv.ParseFloat(rest[i+1:], 64); err == nil {
			out[strings.TrimSpace(rest[:i])] = v
		}
	}
	return out, sc.Err()
}

// LabelValue reads one label from a printed label set like {a="1",b="2"}.
func LabelValue(labels, name string) string {
	_, rest, ok := strings.Cut(labels, name+`="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}
