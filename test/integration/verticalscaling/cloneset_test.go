package verticalscaling

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const (
	cloneSetName = "resize-demo"
	budgetName   = "resize-demo-pub"
)

// the resources the test moves the template to (the example has 100m/64Mi, 200m/128Mi)
var newResources = corev1.ResourceRequirements{
	Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("96Mi")},
	Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("400m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
}

// cloneset-vertical-scaling.yaml: a change of the container's cpu and memory resizes
// the 5 pods in place — same names, UIDs and restart counts, each pod's spec and
// status end at the new resources — and the PodUnavailableBudget (maxUnavailable 1)
// holds throughout although the CloneSet allows 100%: a watch on the pods never sees
// two of them unavailable (not ready, or not yet running the resources their spec
// asks for) at once, and the CloneSet reports the budget's refusals.
func TestCloneSetResizeInPlaceWithinBudget(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)

	data, err := os.ReadFile(filepath.Join(c.Root, "examples", "cloneset-vertical-scaling.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.KubectlStdin(t, string(data), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pub, err := kc.PolicyV1alpha1().PodUnavailableBudgets(ns).Get(ctx, budgetName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := pub.Status
		return s.ObservedGeneration == pub.Generation && s.CurrentAvailable == 5 && s.UnavailableAllowed == 1, nil
	})
	list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]corev1.Pod{}
	for _, p := range list.Items {
		if p.Status.ContainerStatuses[0].Resources == nil {
			t.Fatalf("pod %s: the node reports no container resources, so no resize is possible: %+v", p.Name, p.Status.ContainerStatuses[0])
		}
		before[p.Name] = p
	}
	if len(before) != 5 {
		t.Fatalf("%d pods, want 5", len(before))
	}

	// The watch starts at the list: it sees every change the rollout makes.
	w, err := c.Client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	obs := &observer{pods: map[string]*corev1.Pod{}}
	for i := range list.Items {
		obs.pods[list.Items[i].Name] = &list.Items[i]
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			obs.see(ev)
		}
	}()

	patch := `[{"op":"replace","path":"/spec/template/spec/containers/0/resources","value":{` +
		`"requests":{"cpu":"200m","memory":"96Mi"},"limits":{"cpu":"400m","memory":"256Mi"}}}]`
	if _, err := kc.AppsV1alpha1().CloneSets(ns).Patch(ctx, cloneSetName, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}

	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		cs, err := kc.AppsV1alpha1().CloneSets(ns).Get(ctx, cloneSetName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := cs.Status
		if s.ObservedGeneration != cs.Generation || s.UpdatedReplicas != 5 || s.UpdatedReadyReplicas != 5 || s.Replicas != 5 {
			return false, nil
		}
		pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for i := range pods.Items {
			if !runsResources(&pods.Items[i], newResources) {
				return false, nil
			}
		}
		return true, nil
	})

	after, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Items) != 5 {
		t.Errorf("%d pods after the rollout, want 5", len(after.Items))
	}
	for _, p := range after.Items {
		was, ok := before[p.Name]
		if !ok || was.UID != p.UID {
			t.Errorf("pod %s (uid %s) is new: a resize keeps pod names and UIDs", p.Name, p.UID)
			continue
		}
		if got, want := p.Status.ContainerStatuses[0].RestartCount, was.Status.ContainerStatuses[0].RestartCount; got != want {
			t.Errorf("pod %s restartCount %d -> %d: a resize restarts nothing", p.Name, want, got)
		}
		if !strings.Contains(p.Annotations["apps.kruise.io/inplace-update-state"], `"updateResources":true`) {
			t.Errorf("pod %s in-place update state %s, want updateResources", p.Name, p.Annotations["apps.kruise.io/inplace-update-state"])
		}
	}

	w.Stop()
	<-done
	obs.mu.Lock()
	defer obs.mu.Unlock()
	t.Logf("watch: %d events, at most %d pods unavailable at once, %d resized", obs.events, obs.maxUnavailable, len(obs.resized))
	if obs.maxUnavailable > 1 {
		t.Errorf("%d pods unavailable at once (%v): the budget allows 1", obs.maxUnavailable, obs.worst)
	}
	if len(obs.created)+len(obs.deleted) > 0 {
		t.Errorf("pods created %v, deleted %v: the rollout must resize in place", obs.created, obs.deleted)
	}
	if len(obs.resized) != 5 {
		t.Errorf("the watch saw %d pods resized (%v), want 5", len(obs.resized), obs.resized)
	}

	// The budget, not the CloneSet's maxUnavailable (100%), paced the rollout.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		events, err := c.Client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + cloneSetName})
		if err != nil {
			return false, err
		}
		for _, e := range events.Items {
			if e.Reason == "FailedUpdatePodInPlace" && strings.Contains(e.Message, "waits for its disruption budget") &&
				strings.Contains(e.Message, budgetName) {
				return true, nil
			}
		}
		return false, nil
	})
	// and hands every slot back once the pods run their new resources
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		pub, err := kc.PolicyV1alpha1().PodUnavailableBudgets(ns).Get(ctx, budgetName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := pub.Status
		return s.CurrentAvailable == 5 && s.UnavailableAllowed == 1 && len(s.UnavailablePods) == 0, nil
	})
}

// observer follows the pods through a watch and counts how many are unavailable at
// once: not ready, or resizing (their status does not show the resources their spec
// asks for, or a resize condition is set).
type observer struct {
	mu             sync.Mutex
	pods           map[string]*corev1.Pod
	events         int
	maxUnavailable int
	worst          []string
	resized        map[string]bool
	created        []string
	deleted        []string
}

func (o *observer) see(ev watch.Event) {
	p, ok := ev.Object.(*corev1.Pod)
	if !ok {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events++
	switch ev.Type {
	case watch.Added:
		if _, known := o.pods[p.Name]; !known {
			o.created = append(o.created, p.Name)
		}
		o.pods[p.Name] = p
	case watch.Modified:
		if p.DeletionTimestamp != nil && o.pods[p.Name] != nil && o.pods[p.Name].DeletionTimestamp == nil {
			o.deleted = append(o.deleted, p.Name)
		}
		o.pods[p.Name] = p
	case watch.Deleted:
		if o.pods[p.Name] != nil && o.pods[p.Name].DeletionTimestamp == nil {
			o.deleted = append(o.deleted, p.Name)
		}
		delete(o.pods, p.Name)
	}
	if runsResources(p, newResources) {
		if o.resized == nil {
			o.resized = map[string]bool{}
		}
		o.resized[p.Name] = true
	}
	var down []string
	for name, pod := range o.pods {
		if unavailable(pod) {
			down = append(down, name)
		}
	}
	if len(down) > o.maxUnavailable {
		o.maxUnavailable, o.worst = len(down), down
	}
}

func unavailable(p *corev1.Pod) bool {
	if p.DeletionTimestamp != nil || p.Status.Phase != corev1.PodRunning {
		return true
	}
	ready := false
	for _, c := range p.Status.Conditions {
		switch c.Type {
		case corev1.PodReady:
			ready = c.Status == corev1.ConditionTrue
		case corev1.PodResizePending, corev1.PodResizeInProgress:
			if c.Status == corev1.ConditionTrue {
				return true
			}
		}
	}
	if !ready {
		return true
	}
	return !runsResources(p, p.Spec.Containers[0].Resources)
}

// runsResources: the pod's first container asks for want and its status reports it.
func runsResources(p *corev1.Pod, want corev1.ResourceRequirements) bool {
	if len(p.Spec.Containers) == 0 || len(p.Status.ContainerStatuses) == 0 {
		return false
	}
	got := p.Status.ContainerStatuses[0].Resources
	return got != nil && sameList(p.Spec.Containers[0].Resources.Requests, want.Requests) &&
		sameList(p.Spec.Containers[0].Resources.Limits, want.Limits) &&
		sameList(got.Requests, want.Requests) && sameList(got.Limits, want.Limits)
}

func sameList(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, q := range a {
		if r, ok := b[name]; !ok || q.Cmp(r) != 0 {
			return false
		}
	}
	return true
}
