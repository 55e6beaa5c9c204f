package podwebhook

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

// budgetRules: the disruptions a PodUnavailableBudget guards. Updates are all pod
// updates (not pods/status): the handler lets through those that leave the spec alone.
// A resize (pods/resize, in-place vertical scaling) is such an update: its request
// carries the old and the new pod as a pod update does.
var budgetRules = []Rule{
	{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update, admissionregistrationv1.Delete}, Resource: Pods},
	{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create}, Resource: PodEvictions},
	{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Update}, Resource: PodResizes},
}

// budgetGuard is the PodUnavailableBudget handler: it lets a disruption of an
// available pod through only if every budget covering the pod has a slot left, and
// spends the slot in the budget's status before answering (pkg/podbudget).
func budgetGuard(store BudgetStore, now func() time.Time, unguarded ...podbudget.Operation) Handler {
	sp := newSpender(store, now)
	sp.unguarded = unguarded
	return Handler{Name: "pod-unavailable-budget", Rules: budgetRules, Synced: store.Synced,
		// A budget guards only pods of its own namespace.
		CallClauses: cachedCallClauses("PodUnavailableBudgets", store.List, BudgetCallClause),
		Validate: func(ctx context.Context, req *admissionv1.AdmissionRequest) error {
			return guard(ctx, sp, req)
		}}
}

func guard(ctx context.Context, sp *spender, req *admissionv1.AdmissionRequest) error {
	if byGarbageCollector(req) {
		return nil // its pods' owners are gone or going (budget_owners.go)
	}
	store := sp.store
	// The namespace's budgets first, from the cache: most namespaces have none, and
	// then the pods in the request (two of them for an update) need no decoding. Every
	// pod update and delete in the cluster comes through here; decoding them was most
	// of kruise-apiserver's CPU while pods churned.
	budgets, err := store.List(req.Namespace)
	if err != nil {
		return fmt.Errorf("listing PodUnavailableBudgets: %w", err)
	}
	if len(budgets) == 0 {
		return nil
	}
	op, pod, err := disruption(ctx, store, req)
	if err != nil || pod == nil || slices.Contains(sp.unguarded, op) {
		return err
	}
	if podbudget.NoProtect(pod.Annotations) || pod.DeletionTimestamp != nil || !podAvailable(pod) {
		return nil // opted out, already going, or not counted as available anyway
	}
	sort.Slice(budgets, func(i, j int) bool { return budgets[i].Name < budgets[j].Name })
	for _, pub := range budgets {
		if pub.DeletionTimestamp != nil || !podbudget.Protects(pub, op) || podbudget.Ignored(pub, pod.Labels) {
			continue
		}
		covered, err := covers(ctx, store, pub, pod)
		if err != nil {
			return err
		}
		if !covered {
			continue
		}
		if err := sp.spend(ctx, pub, pod.Name, op, req.DryRun != nil && *req.DryRun); err != nil {
			return letGoIfOwnersGone(ctx, store, op, pod, err)
		}
	}
	return nil
}

// letGoIfOwnersGone turns a budget's refusal of a delete or eviction into a pass when
// the pod's owners are all gone or being deleted (budget_owners.go). The owners are
// read only here, on a refusal: a disruption the budget allows costs no lookup (and
// spends its slot as any other).
func letGoIfOwnersGone(ctx context.Context, store BudgetStore, op podbudget.Operation, pod *corev1.Pod, refusal error) error {
	if _, ok := asRefusal(refusal); !ok || op == podbudget.Update || len(pod.OwnerReferences) == 0 {
		return refusal
	}
	logger := klog.FromContext(ctx).WithValues("pod", klog.KObj(pod))
	gone, err := store.OwnersGone(ctx, pod.Namespace, pod.OwnerReferences)
	if err != nil {
		// The refusal stands (429: the client tries again), the lookup's error logged.
		logger.Error(err, "Reading the owners of a pod a budget holds back")
		return refusal
	}
	if !gone {
		return refusal
	}
	logger.V(2).Info("Letting a pod go: its owners are gone or being deleted", "operation", op)
	return nil
}

// disruption is what req does to which pod; a nil pod means nothing a budget guards
// (an update that leaves the spec alone, an eviction of a pod already gone).
func disruption(ctx context.Context, store BudgetStore, req *admissionv1.AdmissionRequest) (podbudget.Operation, *corev1.Pod, error) {
	switch {
	case req.SubResource == "eviction":
		pod, err := store.Pod(ctx, req.Namespace, req.Name)
		if apierrors.IsNotFound(err) {
			return "", nil, nil
		}
		if err != nil {
			return "", nil, fmt.Errorf("reading the pod to evict: %w", err)
		}
		return podbudget.Evict, pod, nil
	case req.Operation == admissionv1.Delete:
		pod, err := decodePod(req.OldObject.Raw)
		return podbudget.Delete, pod, err
	case req.Operation == admissionv1.Update:
		old, err := decodePod(req.OldObject.Raw)
		if err != nil {
			return "", nil, err
		}
		pod, err := decodePod(req.Object.Raw)
		if err != nil {
			return "", nil, err
		}
		if apiequality.Semantic.DeepEqual(old.Spec, pod.Spec) {
			return "", nil, nil // metadata only: the pod keeps running as it is
		}
		// decide on the pod as it runs now: its readiness is the old object's
		return podbudget.Update, old, nil
	}
	return "", nil, nil
}

func decodePod(raw []byte) (*corev1.Pod, error) {
	pod := &corev1.Pod{}
	if err := json.Unmarshal(raw, pod); err != nil {
		return nil, fmt.Errorf("decoding the pod: %w", err)
	}
	return pod, nil
}

// podAvailable: running and ready, what the budget counts as available.
func podAvailable(pod *corev1.Pod) bool {
	if pod.Status.Phase != corev1.PodRunning {
		return false
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// covers reports whether pub guards pod: its selector selects the pod, or its target
// controls the pod (a Deployment through the pod's ReplicaSet).
func covers(ctx context.Context, store BudgetStore, pub *policyv1beta1.PodUnavailableBudget, pod *corev1.Pod) (bool, error) {
	if ref := pub.Spec.TargetReference; ref != nil {
		owner := metav1.GetControllerOf(pod)
		if owner == nil {
			return false, nil
		}
		want, err := schema.ParseGroupVersion(ref.APIVersion)
		if err != nil {
			return false, nil
		}
		if sameWorkload(owner, want.Group, ref.Kind, ref.Name) {
			return true, nil
		}
		if want.Group != "apps" || ref.Kind != "Deployment" || !sameWorkload(owner, "apps", "ReplicaSet", "") {
			return false, nil
		}
		rsOwner, err := store.ReplicaSetController(ctx, pod.Namespace, owner.Name)
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("reading ReplicaSet %s: %w", owner.Name, err)
		}
		return rsOwner != nil && sameWorkload(rsOwner, "apps", "Deployment", ref.Name), nil
	}
	if pub.Spec.Selector == nil {
		return false, nil
	}
	sel, err := metav1.LabelSelectorAsSelector(pub.Spec.Selector)
	if err != nil {
		return false, nil
	}
	return sel.Matches(labels.Set(pod.Labels)), nil
}

// sameWorkload compares an owner reference with a group, kind and name ("" = any).
func sameWorkload(owner *metav1.OwnerReference, group, kind, name string) bool {
	gv, err := schema.ParseGroupVersion(owner.APIVersion)
	return err == nil && gv.Group == group && owner.Kind == kind && (name == "" || owner.Name == name)
}
