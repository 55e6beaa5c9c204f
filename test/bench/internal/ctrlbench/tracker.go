package ctrlbench

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// tracker watches the pods of one namespace and notes, for each pod, the first moment
// since the phase began that it runs the phase's image and is Ready: the time-to-ready
// curve. It also counts the live pods, so a rollout is done only once old pods are gone.
type tracker struct {
	mu      sync.Mutex
	start   time.Time
	image   string
	readyAt map[types.UID]time.Duration
	// specAt: when each pod was first seen with the phase's image in its spec (created
	// with it, or patched in place), so a slow phase shows whether the controller or
	// the node side (kwok) held it up.
	specAt map[types.UID]time.Duration
	pods   map[types.UID]*corev1.Pod
	stop   context.CancelFunc
}

func startTracker(ctx context.Context, kube kubernetes.Interface, ns string) (*tracker, error) {
	t := &tracker{readyAt: map[types.UID]time.Duration{}, specAt: map[types.UID]time.Duration{}, pods: map[types.UID]*corev1.Pod{}}
	ctx, t.stop = context.WithCancel(ctx)
	f := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(ns),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = podLabel + "=" + workloadName }))
	inf := f.Core().V1().Pods().Informer()
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { t.observe(o, false) },
		UpdateFunc: func(_, o any) { t.observe(o, false) },
		DeleteFunc: func(o any) { t.observe(o, true) },
	})
	if err != nil {
		return nil, fmt.Errorf("pod tracker: %w", err)
	}
	f.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		return nil, fmt.Errorf("pod tracker: cache did not sync")
	}
	return t, nil
}

// begin starts a phase: pods count once they are ready with image.
func (t *tracker) begin(image string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.start, t.image = time.Now(), image
	t.readyAt = map[types.UID]time.Duration{}
	t.specAt = map[types.UID]time.Duration{}
	for _, p := range t.pods {
		t.note(p)
	}
}

func (t *tracker) observe(o any, deleted bool) {
	if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
		o = d.Obj
	}
	p, ok := o.(*corev1.Pod)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if deleted {
		delete(t.pods, p.UID)
		return
	}
	t.pods[p.UID] = p
	if !t.start.IsZero() {
		t.note(p)
	}
}

func (t *tracker) note(p *corev1.Pod) {
	if _, seen := t.specAt[p.UID]; !seen && p.DeletionTimestamp == nil && len(p.Spec.Containers) > 0 && p.Spec.Containers[0].Image == t.image {
		t.specAt[p.UID] = time.Since(t.start)
	}
	if _, seen := t.readyAt[p.UID]; seen || !runs(p, t.image) {
		return
	}
	t.readyAt[p.UID] = time.Since(t.start)
}

// runs: not being deleted, spec and reported image are image, Ready.
func runs(p *corev1.Pod, image string) bool {
	if p.DeletionTimestamp != nil {
		return false
	}
	if len(p.Spec.Containers) == 0 || p.Spec.Containers[0].Image != image {
		return false
	}
	reported := false
	for _, s := range p.Status.ContainerStatuses {
		if s.Name == containerName && s.Image == image {
			reported = true
		}
	}
	if !reported {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// state: pods that reached the target this phase, live pods, and the live ones running it.
func (t *tracker) state() (reached, live, current int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range t.pods {
		if p.DeletionTimestamp == nil {
			live++
			if runs(p, t.image) {
				current++
			}
		}
	}
	return len(t.readyAt), live, current
}

// curve: seconds since the phase began at which the 1st, 2nd, ... pod became ready.
func (t *tracker) curve() []float64 { return t.sorted(t.readyAt) }

// specCurve: seconds since the phase began at which the 1st, 2nd, ... pod carried
// the phase's image in its spec.
func (t *tracker) specCurve() []float64 { return t.sorted(t.specAt) }

func (t *tracker) sorted(at map[types.UID]time.Duration) []float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]float64, 0, len(at))
	for _, d := range at {
		out = append(out, float64(d.Milliseconds())/1000)
	}
	slices.Sort(out)
	return out
}

func (t *tracker) close() { t.stop() }
