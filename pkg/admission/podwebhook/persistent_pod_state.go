package podwebhook

import (
	"context"
	"fmt"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/validation"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	"github.com/kruise-native/kruise-native/pkg/persistentpodstate"
)

// PodStateStore is what the PersistentPodState handler reads.
type PodStateStore interface {
	// List returns the PersistentPodStates of a namespace (from a cache).
	List(namespace string) ([]*appsv1beta1.PersistentPodState, error)
	// Synced reports whether the cache has synced.
	Synced() bool
}

// PodStatesFromInformers is the PodStateStore of kruise-apiserver: PersistentPodStates
// from its informer factory (call before the factory starts).
func PodStatesFromInformers(kruise kruiseinformers.SharedInformerFactory) PodStateStore {
	inf := kruise.Apps().V1beta1().PersistentPodStates()
	lister := inf.Lister()
	return informerPodStates{
		list: func(ns string) ([]*appsv1beta1.PersistentPodState, error) {
			return lister.PersistentPodStates(ns).List(labels.Everything())
		},
		synced: inf.Informer().HasSynced,
	}
}

type informerPodStates struct {
	list   func(string) ([]*appsv1beta1.PersistentPodState, error)
	synced func() bool
}

func (s informerPodStates) List(ns string) ([]*appsv1beta1.PersistentPodState, error) {
	return s.list(ns)
}
func (s informerPodStates) Synced() bool { return s.synced() }

// persistentPodStateHandler gives a StatefulSet pod created again under a recorded
// name node affinity to the topology its PersistentPodState recorded
// (pkg/persistentpodstate.Inject).
func persistentPodStateHandler(store PodStateStore) Handler {
	return Handler{Name: "persistentpodstate", Rules: podCreates, Synced: store.Synced,
		CallClauses: cachedCallClauses("PersistentPodStates", store.List, PersistentPodStateCallClause),
		// Only a namespace with a PersistentPodState has pods to complete.
		Applies: func(req *admissionv1.AdmissionRequest) (bool, error) {
			states, err := store.List(req.Namespace)
			if err != nil {
				return false, fmt.Errorf("listing PersistentPodStates: %w", err)
			}
			return len(states) > 0, nil
		},
		Mutate: func(ctx context.Context, _ *admissionv1.AdmissionRequest, pod *corev1.Pod) error {
			pps, err := podStateOf(store, pod)
			if err != nil || pps == nil {
				return err
			}
			if persistentpodstate.Inject(pod, pps) {
				klog.FromContext(ctx).V(2).Info("Gave the pod its recorded topology", "pod", klog.KObj(pod),
					"persistentpodstate", klog.KObj(pps), "node", pps.Status.PodStates[pod.Name].NodeName)
			}
			return nil
		}}
}

// podStateOf is the PersistentPodState that names the pod's controlling StatefulSet
// (any version of its group); nil when none does.
func podStateOf(store PodStateStore, pod *corev1.Pod) (*appsv1beta1.PersistentPodState, error) {
	ref := metav1.GetControllerOf(pod)
	if ref == nil {
		return nil, nil
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, nil
	}
	gk := gv.WithKind(ref.Kind).GroupKind()
	if !isPodStateTarget(gk) {
		return nil, nil
	}
	states, err := store.List(pod.Namespace)
	if err != nil {
		return nil, fmt.Errorf("listing PersistentPodStates: %w", err)
	}
	for _, pps := range states {
		t := pps.Spec.TargetReference
		tgv, err := schema.ParseGroupVersion(t.APIVersion)
		if pps.DeletionTimestamp == nil && err == nil && t.Name == ref.Name && tgv.WithKind(t.Kind).GroupKind() == gk {
			return pps, nil
		}
	}
	return nil, nil
}

func isPodStateTarget(gk schema.GroupKind) bool {
	for _, t := range validation.PersistentPodStateTargets {
		if t == gk {
			return true
		}
	}
	return false
}

// PersistentPodStateCallClause is the clause of a PersistentPodState (any version):
// the pod creates in its namespace whose controller reference names a StatefulSet of
// the target's name (the handler checks the group). It does not depend on the status:
// a record written later needs no wider registration. A deleted one has none.
func PersistentPodStateCallClause(pps metav1.Object) (key, expr string, ok bool) {
	if pps.GetDeletionTimestamp() != nil {
		return "", "", false
	}
	var name string
	switch o := pps.(type) {
	case *appsv1beta1.PersistentPodState:
		name = o.Spec.TargetReference.Name
	case *apps.PersistentPodState:
		name = o.Spec.TargetReference.Name
	default:
		return "", "", false
	}
	expr = namespaceClause(pps.GetNamespace()) + " && " + present("object.metadata.ownerReferences") +
		" && object.metadata.ownerReferences.exists(r, " + present("r.controller") + " && r.controller == true && " +
		present("r.kind") + " && r.kind == \"StatefulSet\" && " + present("r.name") + " && r.name == " + celString(name) + ")"
	return "persistentpodstate/" + pps.GetNamespace() + "/" + pps.GetName(), expr, true
}
