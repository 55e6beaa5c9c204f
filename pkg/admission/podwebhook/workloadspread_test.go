package podwebhook

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/workloadspread"
)

// fakeSpreads is one WorkloadSpread with the API server's optimistic concurrency; the
// cache (List) lags: it returns the version the test stored first.
type fakeSpreads struct {
	mu       sync.Mutex
	cached   *appsv1beta1.WorkloadSpread
	stored   *appsv1beta1.WorkloadSpread
	writes   int
	rsOwner  *metav1.OwnerReference
	replicas int32
}

func (f *fakeSpreads) List(string) ([]*appsv1beta1.WorkloadSpread, error) {
	return []*appsv1beta1.WorkloadSpread{f.cached.DeepCopy()}, nil
}
func (f *fakeSpreads) Get(context.Context, string, string) (*appsv1beta1.WorkloadSpread, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stored.DeepCopy(), nil
}
func (f *fakeSpreads) UpdateStatus(_ context.Context, ws *appsv1beta1.WorkloadSpread) (*appsv1beta1.WorkloadSpread, error) {
	time.Sleep(5 * time.Millisecond) // a write takes time: requests queue behind it
	f.mu.Lock()
	defer f.mu.Unlock()
	if ws.ResourceVersion != f.stored.ResourceVersion {
		return nil, apierrors.NewConflict(schema.GroupResource{Resource: "workloadspreads"}, ws.Name, fmt.Errorf("stale"))
	}
	rv, _ := strconv.Atoi(ws.ResourceVersion)
	f.stored = ws.DeepCopy()
	f.stored.ResourceVersion = strconv.Itoa(rv + 1)
	f.writes++
	return f.stored.DeepCopy(), nil
}
func (f *fakeSpreads) ReplicaSetController(context.Context, string, string) (*metav1.OwnerReference, error) {
	return f.rsOwner, nil
}
func (f *fakeSpreads) Synced() bool { return true }
func (f *fakeSpreads) TargetReplicas(context.Context, *appsv1beta1.WorkloadSpread) (int32, error) {
	return f.replicas, nil
}

func zoneSpread(target appsv1beta1.TargetReference) *appsv1beta1.WorkloadSpread {
	three := intstr.FromInt32(3)
	zone := func(z string) *corev1.NodeSelectorTerm {
		return &corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{
			{Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{z}}}}
	}
	return &appsv1beta1.WorkloadSpread{
		ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "ns", UID: "u", Generation: 1, ResourceVersion: "1"},
		Spec: appsv1beta1.WorkloadSpreadSpec{TargetReference: &target, Subsets: []appsv1beta1.WorkloadSpreadSubset{
			{Name: "subset-a", RequiredNodeSelectorTerm: zone("a"), MaxReplicas: &three,
				Patch: runtime.RawExtension{Raw: []byte(`{"metadata":{"labels":{"zone":"a"}}}`)}},
			{Name: "subset-b", RequiredNodeSelectorTerm: zone("b"),
				Tolerations: []corev1.Toleration{{Key: "spot", Operator: corev1.TolerationOpExists}}},
		}},
		Status: appsv1beta1.WorkloadSpreadStatus{ObservedGeneration: 1, SubsetStatuses: []appsv1beta1.WorkloadSpreadSubsetStatus{
			{Name: "subset-a", MissingReplicas: 3}, {Name: "subset-b", MissingReplicas: -1}}},
	}
}

func ownedPod(name, apiVersion, kind, owner string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: owner, Controller: ptr.To(true)}}}}
}

// 20 pods of a CloneSet created at once: 3 land in subset-a, 17 in subset-b, every pod
// carries its subset's node term and annotation, and the status records all 20.
func TestWorkloadSpreadPlacesConcurrentCreatesWithinCap(t *testing.T) {
	ws := zoneSpread(appsv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"})
	store := &fakeSpreads{cached: ws, stored: ws.DeepCopy()}
	h := workloadSpreadHandlers(store, time.Now, 0)[0]
	pods := make([]*corev1.Pod, 20)
	var wg sync.WaitGroup
	errs := make([]error, len(pods))
	for i := range pods {
		pods[i] = ownedPod(fmt.Sprintf("web-%d", i), "apps.kruise.io/v1alpha1", "CloneSet", "web")
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = h.Mutate(context.Background(), &admissionv1.AdmissionRequest{}, pods[i])
		}()
	}
	wg.Wait()
	count := map[string]int{}
	for i, p := range pods {
		if errs[i] != nil {
			t.Fatalf("pod %d: %v", i, errs[i])
		}
		pl, ok := workloadspread.PlacementOf(p)
		if !ok || pl.Name != "ws" {
			t.Fatalf("pod %s not placed: %v", p.Name, p.Annotations)
		}
		count[pl.Subset]++
		terms := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
		if want := map[string]string{"subset-a": "a", "subset-b": "b"}[pl.Subset]; len(terms) != 1 || terms[0].MatchExpressions[0].Values[0] != want {
			t.Errorf("pod %s in %s has node terms %v", p.Name, pl.Subset, terms)
		}
		if (p.Labels["zone"] == "a") != (pl.Subset == "subset-a") {
			t.Errorf("pod %s in %s has labels %v (patch)", p.Name, pl.Subset, p.Labels)
		}
		if (len(p.Spec.Tolerations) == 1) != (pl.Subset == "subset-b") {
			t.Errorf("pod %s in %s has tolerations %v", p.Name, pl.Subset, p.Spec.Tolerations)
		}
	}
	if count["subset-a"] != 3 || count["subset-b"] != 17 {
		t.Fatalf("placed %v, want subset-a 3, subset-b 17", count)
	}
	st := store.stored.Status.SubsetStatuses
	if st[0].MissingReplicas != 0 || len(st[0].CreatingPods) != 3 || len(st[1].CreatingPods) != 17 {
		t.Fatalf("status %+v", st)
	}
	if store.writes >= 20 {
		t.Errorf("%d status writes for 20 pods: no batching", store.writes)
	}
}

// A Deployment's pods are traced through their ReplicaSet, get a name if they have only a
// generateName, and a dry run places the pod without reserving anything.
func TestWorkloadSpreadDeploymentPodsAndDryRun(t *testing.T) {
	ws := zoneSpread(appsv1beta1.TargetReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"})
	store := &fakeSpreads{cached: ws, stored: ws.DeepCopy(),
		rsOwner: &metav1.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Controller: ptr.To(true)}}
	h := workloadSpreadHandlers(store, time.Now, 0)[0]
	pod := ownedPod("", "apps/v1", "ReplicaSet", "web-5d8")
	pod.GenerateName = "web-5d8-"
	if err := h.Mutate(context.Background(), &admissionv1.AdmissionRequest{DryRun: ptr.To(true)}, pod); err != nil {
		t.Fatal(err)
	}
	if pl, ok := workloadspread.PlacementOf(pod); !ok || pl.Subset != "subset-a" || pod.Name == "" {
		t.Fatalf("dry run: placement %v name %q", pod.Annotations, pod.Name)
	}
	if store.writes != 0 {
		t.Fatalf("dry run wrote the status")
	}
	other := ownedPod("x", "apps/v1", "ReplicaSet", "other")
	store.rsOwner.Name = "other"
	if err := h.Mutate(context.Background(), &admissionv1.AdmissionRequest{}, other); err != nil || other.Annotations != nil {
		t.Fatalf("pod of another Deployment: %v %v", err, other.Annotations)
	}
}

// Deleting a placed pod frees its slot in the same status (deletingPods).
func TestWorkloadSpreadReleaseOnDelete(t *testing.T) {
	ws := zoneSpread(appsv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"})
	ws.Status.SubsetStatuses[0].MissingReplicas = 0
	store := &fakeSpreads{cached: ws, stored: ws.DeepCopy()}
	h := workloadSpreadHandlers(store, time.Now, 0)[1]
	pod := ownedPod("web-1", "apps.kruise.io/v1alpha1", "CloneSet", "web")
	pod.Annotations = map[string]string{workloadspread.Annotation: `{"name":"ws","subset":"subset-a"}`}
	raw, _ := json.Marshal(pod)
	if err := h.Validate(context.Background(), &admissionv1.AdmissionRequest{Operation: admissionv1.Delete,
		OldObject: runtime.RawExtension{Raw: raw}}); err != nil {
		t.Fatal(err)
	}
	st := store.stored.Status.SubsetStatuses[0]
	if st.MissingReplicas != 1 || st.DeletingPods["web-1"].Time.IsZero() {
		t.Fatalf("status after delete: %+v", st)
	}
}

// emptyNamespaceSpreads is a namespace without WorkloadSpreads.
type emptyNamespaceSpreads struct{ fakeSpreads }

func (*emptyNamespaceSpreads) List(string) ([]*appsv1beta1.WorkloadSpread, error) {
	return nil, nil
}

// A delete in a namespace without WorkloadSpreads is let through without decoding
// the pod.
func TestWorkloadSpreadReleaseWithoutSpreadsDecodesNothing(t *testing.T) {
	h := workloadSpreadHandlers(&emptyNamespaceSpreads{}, time.Now, 0)[1]
	err := h.Validate(context.Background(), &admissionv1.AdmissionRequest{Operation: admissionv1.Delete, Namespace: "ns",
		OldObject: runtime.RawExtension{Raw: []byte("{not a pod")}})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
}
