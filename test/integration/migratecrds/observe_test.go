package migratecrds

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// podWatch watches a namespace's pods without a gap (a RetryWatcher resumes from the
// last resourceVersion it saw) and records every deletion, recreation (a name back with
// another UID), new pod and restart (restartCount above the one at the start).
type podWatch struct {
	mu         sync.Mutex
	uid        map[string]string // name -> uid at the start
	restarts   map[string]int32  // uid -> restartCount at the start
	events     int
	deleted    []string
	recreated  []string
	created    []string
	restarted  map[string]int32 // uid -> highest restartCount seen
	terminated []string         // deletionTimestamp set
	cancel     context.CancelFunc
	done       chan struct{}
}

func restartCount(p *corev1.Pod) int32 {
	var n int32
	for _, s := range p.Status.ContainerStatuses {
		n += s.RestartCount
	}
	return n
}

func watchPods(t *testing.T, c *framework.Cluster, ns string) *podWatch {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := &podWatch{uid: map[string]string{}, restarts: map[string]int32{}, restarted: map[string]int32{}, cancel: cancel, done: make(chan struct{})}
	for i := range list.Items {
		p := &list.Items[i]
		w.uid[p.Name] = string(p.UID)
		w.restarts[string(p.UID)] = restartCount(p)
	}
	rw, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, &cache.ListWatch{
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return c.Client.CoreV1().Pods(ns).Watch(ctx, o)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.done)
		defer rw.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-rw.ResultChan():
				if !ok {
					return
				}
				p, ok := ev.Object.(*corev1.Pod)
				if !ok {
					continue
				}
				w.observe(ev.Type, p)
			}
		}
	}()
	t.Cleanup(w.stop)
	return w
}

func (w *podWatch) observe(typ watch.EventType, p *corev1.Pod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events++
	uid, known := w.uid[p.Name]
	switch {
	case typ == watch.Deleted:
		w.deleted = append(w.deleted, p.Name)
	case known && uid != string(p.UID):
		w.recreated = append(w.recreated, p.Name)
	case !known && typ == watch.Added:
		w.created = append(w.created, p.Name)
	}
	if p.DeletionTimestamp != nil {
		w.terminated = append(w.terminated, p.Name)
	}
	if n := restartCount(p); known && n > w.restarts[string(p.UID)] && n > w.restarted[string(p.UID)] {
		w.restarted[string(p.UID)] = n
	}
}

func (w *podWatch) stop() {
	w.cancel()
	<-w.done
}

// disturbed describes what happened to the pods; "" when nothing did. With restarts
// false, restarts are expected (an in-place update) and not reported.
func (w *podWatch) disturbed(restarts bool) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	if len(w.deleted) > 0 {
		out = append(out, fmt.Sprintf("deleted %v", w.deleted))
	}
	if len(w.terminated) > 0 {
		out = append(out, fmt.Sprintf("terminating %v", w.terminated))
	}
	if len(w.recreated) > 0 {
		out = append(out, fmt.Sprintf("recreated %v", w.recreated))
	}
	if len(w.created) > 0 {
		out = append(out, fmt.Sprintf("new pods %v", w.created))
	}
	if restarts && len(w.restarted) > 0 {
		out = append(out, fmt.Sprintf("restarted (uid: restartCount) %v", w.restarted))
	}
	return strings.Join(out, "; ")
}

// target is one object the prober reads through kube-apiserver.
type target struct {
	gvr       schema.GroupVersionResource
	ns, name  string
	uid       string
	key       string
	failSince time.Time
}

// servedProbe reads a set of objects through kube-apiserver over and over, in each
// version, and records how long any of them was not served (from the first failed read
// to the next good one), how many reads answered 404 (what makes the garbage collector
// delete) and how many returned another UID.
type servedProbe struct {
	mu                 sync.Mutex
	reads, failed      int
	notFound, wrongUID int
	maxWindow          time.Duration
	worst              string
	lastErr            error
	cancel             context.CancelFunc
	done               chan struct{}
}

func probeServed(dyn dynamic.Interface, objs map[string]string, ns string) *servedProbe {
	var targets []*target
	var keys []string
	for k := range objs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		resource, name, _ := strings.Cut(k, "/")
		objNS := ns
		if resource == "sidecarsets" {
			objNS = ""
		}
		versions := []string{"v1beta1", "v1alpha1"}
		if resource == "podunavailablebudgets" {
			versions = versions[:1] // the stand-in's CRD (from our policy/v1beta1 types) serves v1beta1 only
		}
		for _, v := range versions {
			g := gvr(resource)
			g.Version = v
			targets = append(targets, &target{gvr: g, ns: objNS, name: name, uid: objs[k], key: v + "/" + k})
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &servedProbe{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer func() {
			// a window still open at the end counts up to now
			now := time.Now()
			p.mu.Lock()
			defer p.mu.Unlock()
			for _, tg := range targets {
				if !tg.failSince.IsZero() && now.Sub(tg.failSince) > p.maxWindow {
					p.maxWindow, p.worst = now.Sub(tg.failSince), tg.key+" (still failing)"
				}
			}
		}()
		for i := 0; ctx.Err() == nil; i++ {
			tg := targets[i%len(targets)]
			got, err := dyn.Resource(tg.gvr).Namespace(tg.ns).Get(ctx, tg.name, metav1.GetOptions{})
			if ctx.Err() != nil {
				return
			}
			now := time.Now()
			p.mu.Lock()
			p.reads++
			switch {
			case err != nil || string(got.GetUID()) != tg.uid:
				p.failed++
				if apierrors.IsNotFound(err) {
					p.notFound++
				}
				if err == nil {
					p.wrongUID++
					err = fmt.Errorf("%s: uid %s, want %s", tg.key, got.GetUID(), tg.uid)
				}
				p.lastErr = fmt.Errorf("%s: %w", tg.key, err)
				if tg.failSince.IsZero() {
					tg.failSince = now
				}
			case !tg.failSince.IsZero():
				if d := now.Sub(tg.failSince); d > p.maxWindow {
					p.maxWindow, p.worst = d, tg.key
				}
				tg.failSince = time.Time{}
			}
			p.mu.Unlock()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return p
}

func (p *servedProbe) stop() {
	p.cancel()
	<-p.done
}

func (p *servedProbe) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("%d reads through kube-apiserver, %d failed (%d 404, %d other UID); longest not-served window %d ms (%s); last error: %v",
		p.reads, p.failed, p.notFound, p.wrongUID, p.maxWindow.Milliseconds(), p.worst, p.lastErr)
}
