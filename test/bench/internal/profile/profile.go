// Package profile captures pprof CPU and heap profiles from the servers that serve them
// (kruise-apiserver and kube-apiserver through their secure ports) while a phase runs,
// and keeps the top of each as text for the report.
package profile

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
)

// Capture is one profile taken.
type Capture struct {
	Name string `json:"name"` // e.g. "kruise-apiserver-cpu-list"
	File string `json:"file"` // path relative to the results directory
	Top  string `json:"top"`  // `go tool pprof -top` head
}

// Target is a server that serves /debug/pprof.
type Target struct {
	Name   string
	Config *rest.Config // host and credentials of the server
}

// CPU starts a CPU profile of seconds on t in the background; wait() returns it.
func CPU(ctx context.Context, t Target, seconds int, label, dir, relDir string) (wait func() *Capture) {
	ch := make(chan *Capture, 1)
	go func() {
		ch <- fetch(ctx, t, fmt.Sprintf("/debug/pprof/profile?seconds=%d", seconds), t.Name+"-cpu-"+label, dir, relDir)
	}()
	return func() *Capture { return <-ch }
}

// Heap takes a heap profile of t now.
func Heap(ctx context.Context, t Target, label, dir, relDir string) *Capture {
	return fetch(ctx, t, "/debug/pprof/heap", t.Name+"-heap-"+label, dir, relDir)
}

func fetch(ctx context.Context, t Target, path, name, dir, relDir string) *Capture {
	logger := klog.FromContext(ctx)
	hc, err := rest.HTTPClientFor(t.Config)
	if err != nil {
		logger.Error(err, "Profile client", "target", t.Name)
		return nil
	}
	hc.Timeout = 2 * time.Minute
	req, err := http.NewRequestWithContext(ctx, "GET", strings.TrimSuffix(t.Config.Host, "/")+path, nil)
	if err != nil {
		return nil
	}
	resp, err := hc.Do(req)
	if err != nil {
		logger.Error(err, "Profiling", "target", t.Name)
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		logger.Info("Profiling refused", "target", t.Name, "code", resp.StatusCode, "body", string(b))
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil
	}
	file := filepath.Join(dir, name+".pprof")
	f, err := os.Create(file)
	if err != nil {
		logger.Error(err, "Saving a profile")
		return nil
	}
	_, err = io.Copy(f, resp.Body)
	_ = f.Close()
	if err != nil {
		logger.Error(err, "Saving a profile")
		return nil
	}
	c := &Capture{Name: name, File: filepath.Join(relDir, name+".pprof")}
	out, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=25", file).Output()
	if err == nil {
		c.Top = string(out)
	}
	logger.Info("Profile saved", "file", file)
	return c
}
