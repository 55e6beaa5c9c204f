package cloneset

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/lifecycle"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podworkload"
)

// forEach runs fn on every item, podworkload.ParallelWrites at a time, joining the errors.
func forEach[T any](items []T, fn func(T) error) error {
	return batch.ForEach(items, podworkload.ParallelWrites, fn)
}

// createPods creates pods at the update and the current revision, each after its PVCs.
func (c *Controller) createPods(ctx context.Context, st *syncState, atUpdate, atCurrent int) error {
	if atUpdate+atCurrent == 0 {
		return nil
	}
	updateTmpl, err := st.revs.Template(st.revs.Update)
	if err != nil {
		return err
	}
	currentTmpl, currentName := updateTmpl, st.revs.Update.Name
	if atCurrent > 0 {
		if currentTmpl, err = st.revs.Template(st.revs.Current); err != nil {
			return err
		}
		currentName = st.revs.Current.Name
	}
	// Free instance ids first (PVC reuse); creations beyond them wait for the ids
	// still held by pods on their way out.
	reuse, fresh := st.claims.creationsNow(atUpdate + atCurrent)
	if wait := atUpdate + atCurrent - len(reuse) - fresh; wait > 0 {
		fromCurrent := min(wait, atCurrent)
		atCurrent -= fromCurrent
		atUpdate -= wait - fromCurrent
		klog.FromContext(ctx).V(4).Info("Creations wait for instance ids whose pods are going", "count", wait)
	}
	used := st.claims.IDs.Clone()
	for _, p := range st.claimed {
		used.Insert(p.Labels[pub.CloneSetInstanceIDKey])
	}
	ids := newInstanceIDs(used)
	ref := c.pods.OwnerRef(st.cs)
	// Compute caps the creations at batch.Burst; the clamp keeps this allocation bounded
	// whoever calls.
	atUpdate = batch.Clamp(atUpdate)
	atCurrent = min(batch.Clamp(atCurrent), batch.Burst-atUpdate)
	pods := make([]*corev1.Pod, 0, atUpdate+atCurrent)
	for i := range atUpdate + atCurrent {
		tmpl, rev := updateTmpl, st.revs.Update.Name
		if i >= atUpdate {
			tmpl, rev = currentTmpl, currentName
		}
		id, err := c.nextID(ctx, st, &reuse, ids)
		if err != nil {
			return err
		}
		pod := newPod(st.cs, ref, tmpl, rev, id)
		if c.readinessGate {
			lifecycle.InjectReadinessGate(pod, st.cs.Spec.Lifecycle)
		}
		pods = append(pods, pod)
	}
	return c.pods.CreatePods(ctx, st.cs, pods, func(pod *corev1.Pod) []*corev1.PersistentVolumeClaim {
		claims := make([]*corev1.PersistentVolumeClaim, 0, len(st.cs.Spec.VolumeClaimTemplates))
		for _, tmpl := range st.cs.Spec.VolumeClaimTemplates {
			claims = append(claims, newClaim(st.cs, ref, tmpl, pod.Name, pod.Labels[pub.CloneSetInstanceIDKey]))
		}
		return claims
	})
}

// nextID is the instance id of the next pod: a free one whose claims are still there
// to take, else a fresh one.
func (c *Controller) nextID(ctx context.Context, st *syncState, reuse *[]string, ids *instanceIDs) (string, error) {
	for len(*reuse) > 0 {
		id := (*reuse)[0]
		*reuse = (*reuse)[1:]
		ok, err := c.stillReusable(ctx, st.cs, id)
		if err != nil {
			return "", err
		}
		if ok {
			klog.FromContext(ctx).V(2).Info("Reusing the instance id and claims of a pod that is gone", "instanceID", id)
			return id, nil
		}
	}
	return ids.next()
}

// deletePods deletes pods by name, with the PVCs made for them (a preDelete hook holds
// a pod in PreparingDelete instead).
func (c *Controller) deletePods(ctx context.Context, st *syncState, names []string) error {
	if len(names) == 0 {
		return nil
	}
	pods := make([]*corev1.Pod, 0, len(names))
	for _, name := range names {
		pods = append(pods, st.byName[name])
	}
	return c.pods.DeletePods(ctx, st.cs, st.cs.Spec.Lifecycle, pods, func(pod *corev1.Pod) []string {
		return podClaims(st.cs.Spec.VolumeClaimTemplates, st.claims.ByID, pod)
	}, metav1.NewTime(st.now))
}

// podClaims names the claims that go with a pod: those of the current templates and
// every claim of the CloneSet carrying the pod's instance id (byID, claimPlan.ByID), as
// OpenKruise deletes them, so that a template renamed or removed since the pod was
// made leaves no claim behind for the id's next pod to take.
func podClaims(templates []corev1.PersistentVolumeClaim, byID map[string][]string, pod *corev1.Pod) []string {
	names := make([]string, 0, len(templates))
	seen := make(map[string]bool, len(templates))
	for _, tmpl := range templates {
		name := claimName(tmpl.Name, pod.Name)
		names = append(names, name)
		seen[name] = true
	}
	if id := pod.Labels[pub.CloneSetInstanceIDKey]; id != "" {
		for _, name := range byID[id] {
			if !seen[name] {
				names = append(names, name)
				seen[name] = true
			}
		}
	}
	return names
}
