package statefulset

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// volumeClaimUpdateStrategy OnPodRollingUpdate: a storage increase in a volume claim
// template reaches each pod's claim as the rollout reaches the pod, as in OpenKruise.
// The rollout patches the claim's spec.resources.requests.storage (only when its
// StorageClass has allowVolumeExpansion), then waits until the claim's
// status.capacity shows the new size (what the volume's resizer and kubelet report
// once the volume and its file system have grown) before it goes on with the pod:
// while it waits the pod counts as unavailable. A pod whose template did not change
// is not restarted. A decrease cannot be carried out (kube refuses to shrink a
// claim): the claim keeps its larger size, which satisfies the template.

// ConditionFailedUpdatePVC says why claims of the set are not brought to their
// templates' size (its reason is one of the claimProblem kinds). OpenKruise uses
// the same word for its warning events.
const ConditionFailedUpdatePVC appsv1.StatefulSetConditionType = "FailedUpdatePVC"

// Reasons of ConditionFailedUpdatePVC.
const (
	reasonNotExpandable = "StorageClassNotExpandable"
	reasonShrink        = "ShrinkNotSupported"
	reasonResizeFailed  = "ResizeFailed"
)

// claimState is how the claims of one pod stand against the templates.
type claimState struct {
	// stale: a bound claim asks for less storage than its template.
	stale bool
	// resizing: every claim asks for enough, but a bound one has less capacity.
	resizing bool
}

// resizesClaims reports whether the set's claim templates roll out to existing claims.
func resizesClaims(set *v1beta1.StatefulSet) bool {
	return set.Spec.VolumeClaimUpdateStrategy.Type == v1beta1.OnPodRollingUpdateVolumeClaimUpdateStrategyType &&
		len(set.Spec.VolumeClaimTemplates) > 0
}

func storageOf(list corev1.ResourceList) (q int64, ok bool) {
	v, ok := list[corev1.ResourceStorage]
	return v.Value(), ok
}

// eachClaim calls fn with every bound, live claim of the pod at ordinal and the
// storage its template asks for. Claims not bound yet cannot be resized (kube refuses)
// and are sized by the template when created.
func (c *Controller) eachClaim(set *v1beta1.StatefulSet, ordinal int, fn func(tmpl string, want int64, claim *corev1.PersistentVolumeClaim)) {
	for i := range set.Spec.VolumeClaimTemplates {
		tmpl := &set.Spec.VolumeClaimTemplates[i]
		want, ok := storageOf(tmpl.Spec.Resources.Requests)
		if !ok {
			continue
		}
		claim, err := c.claims.PersistentVolumeClaims(set.Namespace).Get(claimName(set, tmpl.Name, ordinal))
		if err != nil || claim.DeletionTimestamp != nil || claim.Status.Phase != corev1.ClaimBound {
			continue
		}
		fn(tmpl.Name, want, claim)
	}
}

// inspectClaims finds, for every pod of the set, whether its claims are behind their
// templates, and fills status.volumeClaims (per template: claims asking for at least
// the template's storage, and those of them that have it). A template asking for less
// than a claim has is reported as a problem: it cannot be carried out.
func (c *Controller) inspectClaims(st *syncState) {
	if !resizesClaims(st.set) {
		st.volumeClaims = nil
		return
	}
	st.claimStates = map[int]claimState{}
	counts := map[string]*v1beta1.VolumeClaimStatus{}
	for _, tmpl := range st.set.Spec.VolumeClaimTemplates {
		st.volumeClaims = append(st.volumeClaims, v1beta1.VolumeClaimStatus{VolumeClaimName: tmpl.Name})
	}
	for i := range st.volumeClaims {
		counts[st.volumeClaims[i].VolumeClaimName] = &st.volumeClaims[i]
	}
	var shrunk []string
	for ord, pod := range st.byOrdinal {
		if pod.DeletionTimestamp != nil {
			continue
		}
		var cs claimState
		c.eachClaim(st.set, ord, func(tmpl string, want int64, claim *corev1.PersistentVolumeClaim) {
			req, _ := storageOf(claim.Spec.Resources.Requests)
			capacity, _ := storageOf(claim.Status.Capacity)
			switch {
			case req < want:
				cs.stale = true
			case capacity < want:
				cs.resizing = true
				counts[tmpl].CompatibleReplicas++
			default:
				counts[tmpl].CompatibleReplicas++
				counts[tmpl].CompatibleReadyReplicas++
			}
			if req > want {
				shrunk = append(shrunk, claim.Name)
			}
		})
		cs.resizing = cs.resizing && !cs.stale
		if cs.stale || cs.resizing {
			st.claimStates[ord] = cs
		}
	}
	if len(shrunk) > 0 {
		slices.Sort(shrunk)
		st.claimProblem(reasonShrink, fmt.Sprintf("claims %s ask for more storage than their templates; "+
			"claims cannot shrink and keep their size", summarize(shrunk)))
	}
}

// resizeClaims brings the claims of a pod the rollout reached to their templates'
// size. It reports whether every claim has its size (the pod may go on to its update).
func (c *Controller) resizeClaims(ctx context.Context, st *syncState, pod *corev1.Pod) (bool, error) {
	ord := OrdinalOf(st.set.Name, pod.Name)
	done := true
	var errs []error
	c.eachClaim(st.set, ord, func(_ string, want int64, claim *corev1.PersistentVolumeClaim) {
		req, _ := storageOf(claim.Spec.Resources.Requests)
		capacity, _ := storageOf(claim.Status.Capacity)
		if capacity < want {
			done = false
		}
		if req >= want {
			return
		}
		if class := claimClass(claim); class != "" {
			sc, err := c.classes.Get(class)
			if err != nil || sc.AllowVolumeExpansion == nil || !*sc.AllowVolumeExpansion {
				st.claimProblem(reasonNotExpandable, fmt.Sprintf("claim %s cannot grow: its StorageClass %s does not allow volume expansion", claim.Name, class))
				return
			}
		}
		tmpl := templateOf(st.set, claim.Name, ord)
		if tmpl == nil {
			return
		}
		if err := c.patchClaimStorage(ctx, st.set, claim, tmpl.Spec.Resources.Requests[corev1.ResourceStorage]); err != nil {
			st.claimProblem(reasonResizeFailed, err.Error())
			errs = append(errs, err)
		}
	})
	if len(errs) > 0 {
		return false, errs[0]
	}
	return done, nil
}

func (c *Controller) patchClaimStorage(ctx context.Context, set *v1beta1.StatefulSet, claim *corev1.PersistentVolumeClaim, size any) error {
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"resources": map[string]any{
		"requests": map[string]any{string(corev1.ResourceStorage): size}}}})
	if err != nil {
		return err
	}
	_, err = c.kubeClient.CoreV1().PersistentVolumeClaims(claim.Namespace).Patch(ctx, claim.Name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: ControllerName})
	if err != nil {
		c.recorder.Eventf(set, corev1.EventTypeWarning, "FailedUpdatePVC", "resize Claim %s in StatefulSet %s failed error: %v", claim.Name, set.Name, err)
		return wrap(err, "resizing claim %s", claim.Name)
	}
	klog.FromContext(ctx).V(2).Info("Resized claim", "claim", klog.KObj(claim), "size", size)
	c.recorder.Eventf(set, corev1.EventTypeNormal, "SuccessfulResize", "resize Claim %s in StatefulSet %s success", claim.Name, set.Name)
	return nil
}

func claimClass(claim *corev1.PersistentVolumeClaim) string {
	if claim.Spec.StorageClassName != nil {
		return *claim.Spec.StorageClassName
	}
	return ""
}

// templateOf is the claim template the claim of the pod at ordinal was made from.
func templateOf(set *v1beta1.StatefulSet, claim string, ordinal int) *corev1.PersistentVolumeClaim {
	for i := range set.Spec.VolumeClaimTemplates {
		if claimName(set, set.Spec.VolumeClaimTemplates[i].Name, ordinal) == claim {
			return &set.Spec.VolumeClaimTemplates[i]
		}
	}
	return nil
}

// claimProblem records why a claim is not at its template's size, for the
// FailedUpdatePVC condition. Syncs run claims in parallel.
func (st *syncState) claimProblem(reason, message string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.claimReason == "" {
		st.claimReason = reason
	}
	st.claimMessages = append(st.claimMessages, message)
}

// claimCondition sets or clears ConditionFailedUpdatePVC, and says whether it is
// newly set or says something new (worth a warning event).
func claimCondition(conds []appsv1.StatefulSetCondition, reason string, messages []string, now metav1.Time) ([]appsv1.StatefulSetCondition, *appsv1.StatefulSetCondition) {
	var prev *appsv1.StatefulSetCondition
	out := slices.DeleteFunc(slices.Clone(conds), func(c appsv1.StatefulSetCondition) bool {
		if c.Type == ConditionFailedUpdatePVC {
			prev = c.DeepCopy()
			return true
		}
		return false
	})
	if reason == "" {
		return out, nil
	}
	slices.Sort(messages)
	cond := appsv1.StatefulSetCondition{Type: ConditionFailedUpdatePVC, Status: corev1.ConditionTrue, LastTransitionTime: now,
		Reason: reason, Message: strings.Join(slices.Compact(messages), "; ")}
	if prev != nil {
		cond.LastTransitionTime = prev.LastTransitionTime
		if prev.Reason == cond.Reason && prev.Message == cond.Message {
			return append(out, cond), nil
		}
	}
	return append(out, cond), &cond
}

// summarize names at most three items and counts the rest, keeping messages short
// for sets with many pods.
func summarize(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:3], ", "), len(items)-3)
}

// claimHandler wakes the sets whose claims changed size (a resize the rollout waits
// for finished), found from the claim's name <template>-<set>-<ordinal>.
func (c *Controller) claimHandler() func(oldObj, newObj any) {
	return func(oldObj, newObj any) {
		old, ok1 := oldObj.(*corev1.PersistentVolumeClaim)
		claim, ok2 := newObj.(*corev1.PersistentVolumeClaim)
		if !ok1 || !ok2 {
			return
		}
		oldCap, _ := storageOf(old.Status.Capacity)
		newCap, _ := storageOf(claim.Status.Capacity)
		if oldCap == newCap && old.Status.Phase == claim.Status.Phase {
			return
		}
		sets, err := c.sets.StatefulSets(claim.Namespace).List(labels.Everything())
		if err != nil {
			return
		}
		for _, set := range sets {
			if !resizesClaims(set) {
				continue
			}
			for _, tmpl := range set.Spec.VolumeClaimTemplates {
				if rest, ok := strings.CutPrefix(claim.Name, tmpl.Name+"-"); ok && OrdinalOf(set.Name, rest) >= 0 {
					c.Loop.Enqueue(set)
					break
				}
			}
		}
	}
}
