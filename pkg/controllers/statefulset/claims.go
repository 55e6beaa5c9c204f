package statefulset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// staleClaimRetry is how soon a set waiting for a claim to go away looks again: claim
// deletions by the garbage collector are not watched.
const staleClaimRetry = 5 * time.Second

var podKind = corev1.SchemeGroupVersion.WithKind("Pod")

// claimOwners says which owner references the claims of the pod at an ordinal should
// carry under the retention policy, as kube's StatefulSet controller does (the
// garbage collector then does the deleting): whenDeleted Delete makes the set an
// owner, whenScaled Delete makes the pod the owner once it is scaled down (condemned),
// and a scaled-down claim loses the set reference so the pod's deletion alone frees it.
func claimOwners(set *v1beta1.StatefulSet, scaledDown bool) (setRef, podRef bool) {
	whenDeleted, whenScaled := retention(set)
	del := v1beta1.DeletePersistentVolumeClaimRetentionPolicyType
	podRef = whenScaled == del && scaledDown
	setRef = whenDeleted == del && !podRef
	return setRef, podRef
}

// newClaim builds the claim of template for the pod at ordinal: the template with
// the pod's claim name and the selector's labels, owned as the policy says.
func newClaim(set *v1beta1.StatefulSet, tmpl *corev1.PersistentVolumeClaim, ordinal int) *corev1.PersistentVolumeClaim {
	claim := tmpl.DeepCopy()
	claim.ObjectMeta = metav1.ObjectMeta{
		Name:        claimName(set, tmpl.Name, ordinal),
		Namespace:   set.Namespace,
		Labels:      maps.Clone(tmpl.Labels),
		Annotations: maps.Clone(tmpl.Annotations),
	}
	if claim.Labels == nil {
		claim.Labels = map[string]string{}
	}
	if set.Spec.Selector != nil {
		maps.Copy(claim.Labels, set.Spec.Selector.MatchLabels)
	}
	if setRef, _ := claimOwners(set, false); setRef {
		claim.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(set, controllerKind)}
	}
	claim.Status = corev1.PersistentVolumeClaimStatus{}
	return claim
}

// wantedClaimRefs returns the claim's owner references as the policy wants them, and
// whether that differs from what it has. A claim controlled by someone else, or
// referring to an earlier set or pod of the same name (a previous incarnation), is
// left alone: it is not ours to change.
func wantedClaimRefs(claim *corev1.PersistentVolumeClaim, set *v1beta1.StatefulSet, pod *corev1.Pod, scaledDown bool) ([]metav1.OwnerReference, bool) {
	isSet := func(r metav1.OwnerReference) bool {
		return r.Kind == controllerKind.Kind && r.Name == set.Name && strings.HasPrefix(r.APIVersion, v1beta1.GroupName+"/")
	}
	isPod := func(r metav1.OwnerReference) bool {
		return r.Kind == "Pod" && r.APIVersion == "v1" && r.Name == pod.Name
	}
	for _, r := range claim.OwnerReferences {
		switch {
		case isSet(r) && r.UID != set.UID, isPod(r) && r.UID != pod.UID:
			return nil, false
		case !isSet(r) && !isPod(r) && r.Controller != nil && *r.Controller:
			return nil, false
		}
	}
	refs := slices.DeleteFunc(slices.Clone(claim.OwnerReferences), func(r metav1.OwnerReference) bool { return isSet(r) || isPod(r) })
	setRef, podRef := claimOwners(set, scaledDown)
	if setRef {
		refs = append(refs, *metav1.NewControllerRef(set, controllerKind))
	}
	if podRef {
		refs = append(refs, *metav1.NewControllerRef(pod, podKind))
	}
	return refs, !refsEqual(refs, claim.OwnerReferences)
}

func refsEqual(a, b []metav1.OwnerReference) bool {
	key := func(r metav1.OwnerReference) string {
		return fmt.Sprintf("%s/%s/%s/%v", r.UID, r.Kind, r.Name, r.Controller != nil && *r.Controller)
	}
	if len(a) != len(b) {
		return false
	}
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		ka[i], kb[i] = key(a[i]), key(b[i])
	}
	slices.Sort(ka)
	slices.Sort(kb)
	return slices.Equal(ka, kb)
}

// setClaimRefs makes the pod's claims carry the owner references the policy wants,
// one patch per claim that differs (none in the steady state).
func (c *Controller) setClaimRefs(ctx context.Context, st *syncState, pod *corev1.Pod, ordinal int, scaledDown bool) error {
	var errs []error
	for i := range st.set.Spec.VolumeClaimTemplates {
		claim, err := c.claims.PersistentVolumeClaims(st.set.Namespace).Get(claimName(st.set, st.set.Spec.VolumeClaimTemplates[i].Name, ordinal))
		if isNotFound(err) || (err == nil && claim.DeletionTimestamp != nil) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		refs, changed := wantedClaimRefs(claim, st.set, pod, scaledDown)
		if !changed {
			continue
		}
		// A merge patch replaces the whole list; the resourceVersion guards against
		// dropping a reference someone added meanwhile.
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"ownerReferences": refs, "resourceVersion": claim.ResourceVersion,
		}})
		if err != nil {
			return err
		}
		_, err = c.kubeClient.CoreV1().PersistentVolumeClaims(claim.Namespace).Patch(ctx, claim.Name, types.MergePatchType, patch,
			metav1.PatchOptions{FieldManager: ControllerName})
		if err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, wrap(err, "setting the owners of claim %s", claim.Name))
			continue
		}
		klog.FromContext(ctx).V(2).Info("Set claim owners for the retention policy", "claim", klog.KObj(claim), "scaledDown", scaledDown)
	}
	return errors.Join(errs...)
}

// claimsBlock reports why the pod at ordinal cannot be created yet: one of its claims
// is being deleted, or is owned by an earlier pod of that name (scaled down with
// whenScaled Delete) and the garbage collector will delete it. Using it would lose
// the new pod's data.
func (c *Controller) claimsBlock(st *syncState, ordinal int) string {
	podName := PodName(st.set.Name, ordinal)
	for _, tmpl := range st.set.Spec.VolumeClaimTemplates {
		claim, err := c.claims.PersistentVolumeClaims(st.set.Namespace).Get(claimName(st.set, tmpl.Name, ordinal))
		if err != nil {
			continue
		}
		if claim.DeletionTimestamp != nil {
			return fmt.Sprintf("claim %s is being deleted", claim.Name)
		}
		for _, r := range claim.OwnerReferences {
			if r.Kind == "Pod" && r.APIVersion == "v1" && r.Name == podName {
				return fmt.Sprintf("claim %s belongs to an earlier pod %s", claim.Name, podName)
			}
		}
	}
	return ""
}

// missingClaims are the claims of the pod at ordinal that the cache does not show. A
// claim created meanwhile by an earlier sync is no error when created again.
func (c *Controller) missingClaims(st *syncState, ordinal int) []*corev1.PersistentVolumeClaim {
	var out []*corev1.PersistentVolumeClaim
	for i := range st.set.Spec.VolumeClaimTemplates {
		claim := newClaim(st.set, &st.set.Spec.VolumeClaimTemplates[i], ordinal)
		if _, err := c.claims.PersistentVolumeClaims(claim.Namespace).Get(claim.Name); err != nil {
			out = append(out, claim)
		}
	}
	return out
}

// syncClaims keeps the claims of the desired pods as the spec wants them: a pending
// pod whose claim is missing gets it (as kube does: the pod cannot start without it),
// and claims follow the retention policy (which may have changed).
func (c *Controller) syncClaims(ctx context.Context, st *syncState) error {
	if len(st.set.Spec.VolumeClaimTemplates) == 0 {
		return nil
	}
	var pods []*corev1.Pod
	for ord, pod := range st.byOrdinal {
		if st.plan.Desired.Has(ord) && pod.DeletionTimestamp == nil {
			pods = append(pods, pod)
		}
	}
	return batch.ForEach(pods, podworkload.ParallelWrites, func(pod *corev1.Pod) error {
		ord := OrdinalOf(st.set.Name, pod.Name)
		if pod.Status.Phase == corev1.PodPending {
			if err := c.pods.CreateClaims(ctx, st.set, pod, c.missingClaims(st, ord)); err != nil {
				return err
			}
		}
		return c.setClaimRefs(ctx, st, pod, ord, false)
	})
}
