package statefulset

import (
	"context"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// podRecorder watches the pods of a namespace and remembers what a test asserts on
// afterwards: the order pods were created and graceful deletions (the controller's)
// started in, pods deleted without grace (forced), and how many of
// the wanted pods were down at once (missing, terminating, not ready, or running
// another image than their spec says: an in-place update in progress). A pod forced
// down is left out of that count until a pod of its name is up again: the controller
// did not take it down, and counting it would charge kwok's deletion to the
// controller's maxUnavailable.
type podRecorder struct {
	mu      sync.Mutex
	wanted  map[string]bool
	pods    map[string]*corev1.Pod
	created []string
	deleted []string
	forced  []string
	// forcedDown: wanted pods forced down and not up again yet.
	forcedDown map[string]bool
	maxDown    int
	cancel     context.CancelFunc
	done       chan struct{}
}

func recordPods(t *testing.T, ns string, wanted ...string) *podRecorder {
	t.Helper()
	client := framework.Get(t).Client.CoreV1().Pods(ns)
	list, err := client.List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := client.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	r := &podRecorder{wanted: map[string]bool{}, pods: map[string]*corev1.Pod{}, forcedDown: map[string]bool{},
		cancel: cancel, done: make(chan struct{})}
	for _, n := range wanted {
		r.wanted[n] = true
	}
	for i := range list.Items {
		r.pods[list.Items[i].Name] = &list.Items[i]
	}
	r.measure()
	go func() {
		defer close(r.done)
		defer w.Stop()
		for ev := range w.ResultChan() {
			pod, ok := ev.Object.(*corev1.Pod)
			if !ok {
				continue
			}
			r.mu.Lock()
			old := r.pods[pod.Name]
			switch ev.Type {
			case watch.Added:
				r.created = append(r.created, pod.Name)
				r.pods[pod.Name] = pod
			case watch.Modified:
				if pod.DeletionTimestamp != nil && (old == nil || old.DeletionTimestamp == nil) {
					if g := pod.DeletionGracePeriodSeconds; g != nil && *g == 0 {
						r.forced = append(r.forced, pod.Name) // see below
						r.forcedDown[pod.Name] = true
					} else {
						r.deleted = append(r.deleted, pod.Name)
					}
				}
				r.pods[pod.Name] = pod
			case watch.Deleted:
				if old != nil && old.DeletionTimestamp == nil {
					// Deleted without a grace period: not the controller's doing (it
					// deletes with the pod's grace period). kwok v0.8.0 deletes
					// terminating pods with grace 0, by name; acting twice on one, it
					// sometimes deletes the replacement the controller just created.
					r.forced = append(r.forced, pod.Name)
					r.forcedDown[pod.Name] = true
				}
				delete(r.pods, pod.Name)
			}
			r.measure()
			r.mu.Unlock()
		}
	}()
	t.Cleanup(r.stop)
	return r
}

func (r *podRecorder) measure() {
	down := 0
	for name := range r.wanted {
		p := r.pods[name]
		if p != nil && !isDown(p) {
			delete(r.forcedDown, name) // up again
		}
		if (p == nil || isDown(p)) && !r.forcedDown[name] {
			down++
		}
	}
	r.maxDown = max(r.maxDown, down)
}

func isDown(p *corev1.Pod) bool {
	if p.DeletionTimestamp != nil || !isPodReady(p) {
		return true
	}
	for _, c := range p.Spec.Containers {
		for _, s := range p.Status.ContainerStatuses {
			if s.Name == c.Name && s.Image != c.Image {
				return true
			}
		}
	}
	return false
}

func (r *podRecorder) stop() {
	r.cancel()
	<-r.done
}

// result stops recording and returns what was seen. Creations that only replaced a
// pod deleted by someone else than the controller (forced, see above) are left out:
// they say nothing about the controller's order.
func (r *podRecorder) result(t *testing.T) (created, deleted []string, maxDown int) {
	r.stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	t.Logf("pods created %v, deleted %v, force-deleted %v, at most %d wanted pods down", r.created, r.deleted, r.forced, r.maxDown)
	created = append([]string(nil), r.created...)
	for _, name := range r.forced {
		for i := len(created) - 1; i >= 0; i-- {
			if created[i] == name {
				created = append(created[:i], created[i+1:]...)
				break
			}
		}
	}
	return created, append([]string(nil), r.deleted...), r.maxDown
}
