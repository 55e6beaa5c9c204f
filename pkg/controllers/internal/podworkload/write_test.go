package podworkload

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clienttesting "k8s.io/client-go/testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// failOn makes the fake API answer verb on pods named name with err.
func (f *fixture) failOn(verb, name string, err error) {
	f.kube.PrependReactor(verb, "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		switch a := a.(type) {
		case clienttesting.CreateAction:
			if a.GetObject().(metav1.Object).GetName() == name {
				return true, nil, err
			}
		case clienttesting.DeleteAction:
			if a.GetName() == name {
				return true, nil, err
			}
		}
		return false, nil, nil
	})
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// Creations are expected before they are sent; a failed one, and those slow start
// never attempted, are forgotten; the created ones wait for the cache.
func TestCreatePodsExpectations(t *testing.T) {
	f := newFixture(t)
	f.failOn("create", "b", errors.New("quota"))
	var pods []*corev1.Pod
	for _, n := range []string{"a", "b", "c", "d"} {
		pods = append(pods, testPod(n, nil, controlledBy("cs", "cs-uid")))
	}
	claims := func(p *corev1.Pod) []*corev1.PersistentVolumeClaim {
		return []*corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data-" + p.Name, Namespace: "ns"}}}
	}
	err := f.c.CreatePods(context.Background(), owner(false), pods, claims)
	if err == nil || err.Error() != "creating pod: quota" {
		t.Fatalf("err = %v, want the failure of b", err)
	}
	// Batches of 1 then 2: a, then b and c; d is never attempted.
	if got := f.writes(); countPrefix(got, "create pods") != 3 || slices.Contains(got, "create pods d") || countPrefix(got, "create persistentvolumeclaims") != 3 {
		t.Errorf("wrote %v, want pods a, b and c attempted, each after its claim, and d never", got)
	}
	if f.c.Scale.Satisfied("ns/cs") {
		t.Fatal("satisfied before the created pods reached the cache")
	}
	for _, n := range []string{"a", "c"} {
		f.c.Scale.Observe("ns/cs", "create", n)
	}
	if !f.c.Scale.Satisfied("ns/cs") {
		t.Error("the failed and unattempted creations are still expected")
	}
	events := f.events()
	if countPrefix(events, "Normal SuccessfulCreate created") != 2 || countPrefix(events, "Warning FailedCreate create b: quota") != 1 {
		t.Errorf("events %v", events)
	}
}

// A namespace being deleted takes the workload with it: no error, nothing expected.
func TestCreatePodsNamespaceTerminating(t *testing.T) {
	f := newFixture(t)
	terminating := &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Reason: metav1.StatusReasonForbidden,
		Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{Type: corev1.NamespaceTerminatingCause}}}}}
	f.failOn("create", "a", terminating)
	if err := f.c.CreatePods(context.Background(), owner(false), []*corev1.Pod{testPod("a", nil, nil)}, nil); err != nil {
		t.Fatal(err)
	}
	if !f.c.Scale.Satisfied("ns/cs") {
		t.Error("a creation refused for a terminating namespace is still expected")
	}
}

// Deletions are expected before they are sent; gone, replaced and failed pods are
// forgotten at once; claims go with deleted and already gone pods.
func TestDeletePodsExpectations(t *testing.T) {
	ours := controlledBy("cs", "cs-uid")
	pods := []*corev1.Pod{testPod("x", nil, ours), testPod("y", nil, ours), testPod("z", nil, ours), testPod("w", nil, ours)}
	f := newFixture(t, pods[0], pods[2], pods[3]) // y is gone already
	f.failOn("delete", "z", apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, "z", errors.New("uid precondition")))
	f.failOn("delete", "w", errors.New("boom"))
	claimsOf := func(p *corev1.Pod) []string { return []string{"data-" + p.Name} }
	err := f.c.DeletePods(context.Background(), owner(false), nil, pods, claimsOf, metav1.Now())
	if err == nil || !strings.Contains(err.Error(), "deleting pod w") {
		t.Fatalf("err = %v, want the failure of w", err)
	}
	got := f.writes()
	slices.Sort(got)
	want := []string{"delete persistentvolumeclaims data-x", "delete persistentvolumeclaims data-y",
		"delete pods w", "delete pods x", "delete pods y", "delete pods z"}
	if !slices.Equal(got, want) {
		t.Errorf("wrote %v, want %v", got, want)
	}
	if f.c.Scale.Satisfied("ns/cs") {
		t.Fatal("satisfied before the deletion of x reached the cache")
	}
	f.c.Scale.Observe("ns/cs", "delete", "x")
	if !f.c.Scale.Satisfied("ns/cs") {
		t.Error("gone, replaced or failed deletions are still expected")
	}
	events := f.events()
	if countPrefix(events, "Normal SuccessfulDelete deleted x") != 1 || countPrefix(events, "Warning FailedDelete delete w: boom") != 1 || len(events) != 2 {
		t.Errorf("events %v", events)
	}
}

// A preDelete hook holds the pod: one write to PreparingDelete, no deletion, nothing
// expected of the cache but that write.
func TestDeletePodsPreDeleteHook(t *testing.T) {
	pod := testPod("x", map[string]string{"hold": "true", pub.LifecycleStateKey: string(pub.LifecycleStateNormal)}, controlledBy("cs", "cs-uid"))
	f := newFixture(t, pod)
	lc := &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}}
	if err := f.c.DeletePods(context.Background(), owner(false), lc, []*corev1.Pod{pod}, nil, metav1.Now()); err != nil {
		t.Fatal(err)
	}
	if got := f.writes(); !slices.Equal(got, []string{"patch pods x"}) {
		t.Errorf("wrote %v, want one patch to PreparingDelete", got)
	}
	p, _ := f.kube.CoreV1().Pods("ns").Get(context.Background(), "x", metav1.GetOptions{})
	if p.Labels[pub.LifecycleStateKey] != string(pub.LifecycleStatePreparingDelete) {
		t.Errorf("state %q", p.Labels[pub.LifecycleStateKey])
	}
	if !f.c.Scale.Satisfied("ns/cs") {
		t.Error("a held pod is expected to be deleted")
	}
}
