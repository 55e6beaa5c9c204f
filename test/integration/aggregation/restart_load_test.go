package aggregation

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// loadResult counts what a steady request load got back.
type loadResult struct {
	ok, forbidden, other atomic.Int64
	mu                   sync.Mutex
	firstForbidden       error
}

func (r *loadResult) record(err error) {
	switch {
	case err == nil:
		r.ok.Add(1)
	case apierrors.IsForbidden(err):
		r.forbidden.Add(1)
		r.mu.Lock()
		if r.firstForbidden == nil {
			r.firstForbidden = err
		}
		r.mu.Unlock()
	default:
		r.other.Add(1) // unavailable while down, or a timeout: clients retry these
	}
}

func (r *loadResult) String() string {
	return fmt.Sprintf("%d ok, %d forbidden, %d other errors", r.ok.Load(), r.forbidden.Load(), r.other.Load())
}

// A crashed kruise-apiserver started again under a steady write load and a watch never
// answers 403: until it trusts the client CAs it reads from the cluster it answers 503
// with Retry-After, which clients retry. Before the fix, requests in flight about a
// second after start got 403 `User "system:anonymous" cannot create resource
// "clonesets"`, and so did a reconnecting watch; clients take a 403 as final.
func TestNoAnonymousRefusalsAfterRestart(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := rest.CopyConfig(c.Config)
	cfg.QPS, cfg.Burst = -1, 0 // no client-side rate limit: a steady stream of requests
	cfg.Timeout = 10 * time.Second
	client := kruiseclient.NewForConfigOrDie(cfg)
	clonesets := client.AppsV1alpha1().CloneSets(ns)

	writes, watches := &loadResult{}, &loadResult{}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				_, err := clonesets.Create(ctx, cloneSet(fmt.Sprintf("load-%d-%d", w, i)), metav1.CreateOptions{})
				if ctx.Err() == nil {
					writes.record(err)
				}
				if err != nil {
					time.Sleep(20 * time.Millisecond) // down: do not spin
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // a watcher that reconnects at once whenever its watch ends
		defer wg.Done()
		for ctx.Err() == nil {
			w, err := clonesets.Watch(ctx, metav1.ListOptions{})
			if ctx.Err() != nil {
				return
			}
			watches.record(err)
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			for range w.ResultChan() {
			}
			w.Stop()
		}
	}()
	stopLoad := func() { cancel(); wg.Wait() }
	defer stopLoad()

	framework.WaitFor(t, time.Minute, func() (bool, error) { return writes.ok.Load() >= 20, nil })
	c.KillComponent(t, "kruise-apiserver")
	restartedAt := time.Now()
	c.StartKruiseAPIServer(t)
	okAtStart := writes.ok.Load()
	framework.WaitFor(t, time.Minute, func() (bool, error) { return writes.ok.Load() >= okAtStart+20, nil })
	stopLoad()

	t.Logf("after a SIGKILL and a start (%s until Available): writes %s; watches %s",
		time.Since(restartedAt).Round(100*time.Millisecond), writes, watches)
	for name, r := range map[string]*loadResult{"write": writes, "watch": watches} {
		if n := r.forbidden.Load(); n > 0 {
			t.Errorf("%d %s requests got 403 across the restart, first: %v", n, name, r.firstForbidden)
		}
	}
}
