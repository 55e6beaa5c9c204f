package podwebhook

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

// fakeBudgets keeps one budget and checks resourceVersions as the server would.
type fakeBudgets struct {
	mu     sync.Mutex
	pub    *policyv1beta1.PodUnavailableBudget
	stale  *policyv1beta1.PodUnavailableBudget // what List returns: the cache may lag
	writes int
	// ownersGone (or ownersErr) is what OwnersGone answers; lookups counts its calls.
	ownersGone bool
	ownersErr  error
	lookups    int
	// podOwners are the owners of the pod Pod returns (an eviction's).
	podOwners []metav1.OwnerReference
}

func (f *fakeBudgets) List(string) ([]*policyv1beta1.PodUnavailableBudget, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return []*policyv1beta1.PodUnavailableBudget{f.stale}, nil
}

func (f *fakeBudgets) Get(context.Context, string, string) (*policyv1beta1.PodUnavailableBudget, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pub.DeepCopy(), nil
}

func (f *fakeBudgets) UpdateStatus(_ context.Context, pub *policyv1beta1.PodUnavailableBudget) (*policyv1beta1.PodUnavailableBudget, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if pub.ResourceVersion != f.pub.ResourceVersion {
		return nil, apierrors.NewConflict(policyv1beta1.Resource("podunavailablebudgets"), pub.Name, nil)
	}
	rv, _ := strconv.Atoi(pub.ResourceVersion)
	f.pub = pub.DeepCopy()
	f.pub.ResourceVersion = strconv.Itoa(rv + 1)
	f.writes++
	return f.pub.DeepCopy(), nil
}

func (f *fakeBudgets) Pod(_ context.Context, ns, name string) (*corev1.Pod, error) {
	p := readyPod(name, nil)
	p.OwnerReferences = f.podOwners
	return p, nil
}

func (f *fakeBudgets) OwnersGone(context.Context, string, []metav1.OwnerReference) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups++
	return f.ownersGone, f.ownersErr
}

func (f *fakeBudgets) ReplicaSetController(context.Context, string, string) (*metav1.OwnerReference, error) {
	return nil, nil
}

func (f *fakeBudgets) Synced() bool { return true }

func readyPod(name string, annotations map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: map[string]string{"app": "web"}, Annotations: annotations},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1"}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
}

func oneSlot() *fakeBudgets {
	one := intstr.FromInt32(1)
	pub := &policyv1beta1.PodUnavailableBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "web-pub", Namespace: "ns", Generation: 1, ResourceVersion: "1"},
		Spec: policyv1beta1.PodUnavailableBudgetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MaxUnavailable: &one},
		Status: policyv1beta1.PodUnavailableBudgetStatus{ObservedGeneration: 1, UnavailableAllowed: 1, CurrentAvailable: 5, DesiredAvailable: 4, TotalReplicas: 5},
	}
	return &fakeBudgets{pub: pub, stale: pub.DeepCopy()}
}

func raw(t *testing.T, obj runtime.Object) runtime.RawExtension {
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return runtime.RawExtension{Raw: data}
}

func deleteReq(t *testing.T, pod *corev1.Pod) *admissionv1.AdmissionRequest {
	return &admissionv1.AdmissionRequest{Operation: admissionv1.Delete, Namespace: pod.Namespace, Name: pod.Name,
		Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"}, OldObject: raw(t, pod)}
}

func run(t *testing.T, store BudgetStore, req *admissionv1.AdmissionRequest) error {
	return budgetGuard(store, time.Now).Validate(context.Background(), req)
}

func refusedWith(err error, code int32) bool {
	s, ok := asRefusal(err)
	return ok && s.Code == code
}

// Of two concurrent deletes competing for the last slot, exactly one passes, and the
// other is refused with 429 naming the budget, even though both read the same cache.
func TestBudgetGuardConcurrentDeletes(t *testing.T) {
	store := oneSlot()
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run(t, store, deleteReq(t, readyPod(name, nil)))
		}()
	}
	wg.Wait()
	passed, refused := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			passed++
		case refusedWith(err, http.StatusTooManyRequests):
			refused++
			if s, _ := asRefusal(err); s.Reason != metav1.StatusReasonTooManyRequests || !strings.Contains(s.Message, "pub ns/web-pub") {
				t.Errorf("refusal %+v", s)
			}
		default:
			t.Errorf("unexpected error %v", err)
		}
	}
	if passed != 1 || refused != 1 || store.writes != 1 || store.pub.Status.UnavailableAllowed != 0 || len(store.pub.Status.DisruptedPods) != 1 {
		t.Errorf("passed %d refused %d writes %d status %+v", passed, refused, store.writes, store.pub.Status)
	}
}

func TestBudgetGuard(t *testing.T) {
	evict := func(name string) *admissionv1.AdmissionRequest {
		return &admissionv1.AdmissionRequest{Operation: admissionv1.Create, Namespace: "ns", Name: name, SubResource: "eviction",
			Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"}}
	}
	update := func(old, cur *corev1.Pod) *admissionv1.AdmissionRequest {
		return &admissionv1.AdmissionRequest{Operation: admissionv1.Update, Namespace: "ns", Name: old.Name,
			Resource: metav1.GroupVersionResource{Version: "v1", Resource: "pods"}, OldObject: raw(t, old), Object: raw(t, cur)}
	}
	newImage := func(p *corev1.Pod) *corev1.Pod {
		p = p.DeepCopy()
		p.Spec.Containers[0].Image = "nginx:2"
		return p
	}
	// resize is what kube-apiserver sends for pods/resize: the old and the new pod.
	resize := func(old *corev1.Pod) *admissionv1.AdmissionRequest {
		cur := old.DeepCopy()
		cur.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")}
		r := update(old, cur)
		r.SubResource = "resize"
		return r
	}
	relabel := func(p *corev1.Pod) *corev1.Pod {
		p = p.DeepCopy()
		p.Labels["x"] = "y"
		return p
	}
	noProtect := map[string]string{policyv1beta1.PodPubNoProtectionAnnotation: "true"}
	dryRun := true
	owned := func(name string) *corev1.Pod {
		p := readyPod(name, nil)
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d8f", UID: "rs-uid", Controller: new(true)}}
		return p
	}
	as := func(user string, r *admissionv1.AdmissionRequest) *admissionv1.AdmissionRequest {
		r.UserInfo.Username = user
		return r
	}
	for _, tc := range []struct {
		name      string
		allowed   int32
		protect   string // kruise.io/pub-protect-operations
		req       *admissionv1.AdmissionRequest
		wantCode  int32 // 0: let through
		wantSpent bool
		// ownersGone is what the owners' lookup answers (ownersErr: it fails), and
		// wantLookup whether it is made.
		ownersGone bool
		ownersErr  error
		wantLookup bool
		// unguarded: the operations a feature gate turned off.
		unguarded []podbudget.Operation
	}{
		// Pods of a workload being deleted: the garbage collector's deletes pass unread,
		// anyone's delete or eviction passes once the owners are read gone or going.
		{name: "the garbage collector's delete without a slot", req: as(GarbageCollectorUser, deleteReq(t, owned("a")))},
		{name: "delete without a slot, owners gone", req: deleteReq(t, owned("a")), ownersGone: true, wantLookup: true},
		{name: "kube-controller-manager on its own credentials, owners gone", ownersGone: true, wantLookup: true,
			req: as("system:kube-controller-manager", deleteReq(t, owned("a")))},
		{name: "kube-controller-manager on its own credentials, owners live", wantCode: 429, wantLookup: true,
			req: as("system:kube-controller-manager", deleteReq(t, owned("a")))},
		{name: "delete without a slot, owners live", req: deleteReq(t, owned("a")), wantCode: 429, wantLookup: true},
		{name: "delete without a slot, owners unreadable", req: deleteReq(t, owned("a")), ownersErr: errors.New("discovery failed"),
			wantCode: 429, wantLookup: true},
		{name: "delete without a slot of a pod without owners", req: deleteReq(t, readyPod("a", nil)), ownersGone: true, wantCode: 429},
		{name: "eviction without a slot, owners gone", req: evict("owned"), ownersGone: true, wantLookup: true},
		{name: "delete with a slot, owners gone: spent, not read", allowed: 1, req: deleteReq(t, owned("a")), ownersGone: true, wantSpent: true},
		{name: "image update without a slot, owners gone: an update is no deletion", ownersGone: true, wantCode: 429,
			req: update(owned("a"), newImage(owned("a")))},
		{name: "dry run without a slot, owners gone", ownersGone: true, wantLookup: true, req: func() *admissionv1.AdmissionRequest {
			r := deleteReq(t, owned("a"))
			r.DryRun = &dryRun
			return r
		}()},

		{name: "delete with a slot", allowed: 1, req: deleteReq(t, readyPod("a", nil)), wantSpent: true},
		{name: "delete without a slot", req: deleteReq(t, readyPod("a", nil)), wantCode: 429},
		{name: "eviction without a slot", req: evict("a"), wantCode: 429},
		{name: "eviction with a slot", allowed: 1, req: evict("a"), wantSpent: true},
		{name: "image update without a slot", req: update(readyPod("a", nil), newImage(readyPod("a", nil))), wantCode: 429},
		{name: "image update with a slot", allowed: 1, req: update(readyPod("a", nil), newImage(readyPod("a", nil))), wantSpent: true},
		{name: "resize without a slot", req: resize(readyPod("a", nil)), wantCode: 429},
		{name: "resize with a slot", allowed: 1, req: resize(readyPod("a", nil)), wantSpent: true},
		{name: "resize without a slot, owners gone: a resize is no deletion", ownersGone: true, wantCode: 429,
			req: resize(owned("a"))},
		{name: "metadata update is not a disruption", req: update(readyPod("a", nil), relabel(readyPod("a", nil)))},
		{name: "no-protect pod", req: deleteReq(t, readyPod("a", noProtect))},
		{name: "unready pod", req: deleteReq(t, func() *corev1.Pod {
			p := readyPod("a", nil)
			p.Status.Conditions[0].Status = corev1.ConditionFalse
			return p
		}())},
		{name: "pod the budget does not select", req: deleteReq(t, func() *corev1.Pod {
			p := readyPod("a", nil)
			p.Labels["app"] = "other"
			return p
		}())},
		{name: "budget guards evictions only", protect: "EVICT", req: deleteReq(t, readyPod("a", nil))},
		// PodUnavailableBudgetUpdateGate / PodUnavailableBudgetDeleteGate off.
		{name: "update gate off: image update without a slot", unguarded: []podbudget.Operation{podbudget.Update},
			req: update(readyPod("a", nil), newImage(readyPod("a", nil)))},
		{name: "update gate off: delete still guarded", unguarded: []podbudget.Operation{podbudget.Update},
			req: deleteReq(t, readyPod("a", nil)), wantCode: 429},
		{name: "delete gate off: delete and eviction without a slot", unguarded: []podbudget.Operation{podbudget.Delete, podbudget.Evict},
			req: evict("a")},
		{name: "dry run with a slot spends nothing", allowed: 1, req: func() *admissionv1.AdmissionRequest {
			r := deleteReq(t, readyPod("a", nil))
			r.DryRun = &dryRun
			return r
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := oneSlot()
			store.pub.Status.UnavailableAllowed = tc.allowed
			if tc.protect != "" {
				store.pub.Annotations = map[string]string{policyv1beta1.PubProtectOperationAnnotation: tc.protect}
			}
			store.stale = store.pub.DeepCopy()
			store.ownersGone, store.ownersErr = tc.ownersGone, tc.ownersErr
			if tc.req.Name == "owned" {
				store.podOwners = owned("owned").OwnerReferences
			}
			err := budgetGuard(store, time.Now, tc.unguarded...).Validate(context.Background(), tc.req)
			switch {
			case tc.wantCode == 0 && err != nil:
				t.Errorf("refused: %v", err)
			case tc.wantCode != 0 && !refusedWith(err, tc.wantCode):
				t.Errorf("got %v, want a %d refusal", err, tc.wantCode)
			}
			if spent := store.writes > 0; spent != tc.wantSpent {
				t.Errorf("spent %v, want %v (status %+v)", spent, tc.wantSpent, store.pub.Status)
			}
			if looked := store.lookups > 0; looked != tc.wantLookup {
				t.Errorf("owners read %v, want %v", looked, tc.wantLookup)
			}
		})
	}
}

// Two kruise-apiserver replicas (two guards, each serializing only its own spends)
// and 20 concurrent deletes for 5 slots: exactly 5 pass, through resourceVersion
// conflicts between the replicas, and the rest get 429.
func TestBudgetGuardReplicasShareTheBudget(t *testing.T) {
	store := oneSlot()
	store.pub.Status.UnavailableAllowed = 5
	store.stale = store.pub.DeepCopy()
	replicas := []Handler{budgetGuard(store, time.Now), budgetGuard(store, time.Now)}
	errs := make([]error, 20)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = replicas[i%2].Validate(context.Background(), deleteReq(t, readyPod("p"+strconv.Itoa(i), nil)))
		}()
	}
	wg.Wait()
	passed := 0
	for _, err := range errs {
		switch {
		case err == nil:
			passed++
		case !refusedWith(err, http.StatusTooManyRequests):
			t.Errorf("unexpected error %v", err)
		}
	}
	if passed != 5 || store.pub.Status.UnavailableAllowed != 0 || len(store.pub.Status.DisruptedPods) != 5 {
		t.Errorf("passed %d, status %+v", passed, store.pub.Status)
	}
}

// emptyNamespaceBudgets is a namespace without PodUnavailableBudgets: the guard must answer
// without reading or decoding the pod.
type emptyNamespaceBudgets struct{ fakeBudgets }

func (*emptyNamespaceBudgets) List(string) ([]*policyv1beta1.PodUnavailableBudget, error) {
	return nil, nil
}

func (*emptyNamespaceBudgets) Pod(context.Context, string, string) (*corev1.Pod, error) {
	panic("the pod was read though no budget can cover it")
}

func TestBudgetGuardWithoutBudgetsDecodesNothing(t *testing.T) {
	garbage := runtime.RawExtension{Raw: []byte("{not a pod")}
	pods := metav1.GroupVersionResource{Version: "v1", Resource: "pods"}
	for name, req := range map[string]*admissionv1.AdmissionRequest{
		"update":   {Operation: admissionv1.Update, Namespace: "ns", Name: "a", Resource: pods, OldObject: garbage, Object: garbage},
		"delete":   {Operation: admissionv1.Delete, Namespace: "ns", Name: "a", Resource: pods, OldObject: garbage},
		"eviction": {Operation: admissionv1.Create, Namespace: "ns", Name: "a", SubResource: "eviction", Resource: pods},
	} {
		t.Run(name, func(t *testing.T) {
			sp := newSpender(&emptyNamespaceBudgets{}, time.Now)
			if err := guard(context.Background(), sp, req); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
}
