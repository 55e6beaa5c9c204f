package cloneset

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// pvcReuse: a replacement pod takes the instance id, and so the claims, of a pod that
// went without the controller deleting it. v1beta1's enablePVCReuse (v1alpha1's
// disablePVCReuse inverted: reuse is v1alpha1's default, not v1beta1's, as in
// OpenKruise v1.9).
func pvcReuse(cs *v1beta1.CloneSet) bool { return cs.Spec.ScaleStrategy.EnablePVCReuse }

// ownedClaims are the cached claims cs controls (its volumeClaimTemplates' claims).
// Every claim it creates carries its selector's matchLabels (newClaim), which narrows
// the list; the controller reference decides.
func (c *Controller) ownedClaims(cs *v1beta1.CloneSet) ([]*corev1.PersistentVolumeClaim, error) {
	all, err := c.claims.PersistentVolumeClaims(cs.Namespace).List(labels.SelectorFromSet(cs.Spec.Selector.MatchLabels))
	if err != nil {
		return nil, fmt.Errorf("listing claims: %w", err)
	}
	var out []*corev1.PersistentVolumeClaim
	for _, claim := range all {
		if ref := metav1.GetControllerOfNoCopy(claim); ref != nil && ref.UID == cs.UID {
			out = append(out, claim)
		}
	}
	return out, nil
}

// syncClaims carries out the claim plan's deletions: with reuse, finished pods holding
// claims (their claims stay, for their replacements); without, claims no active pod
// uses.
func (c *Controller) syncClaims(ctx context.Context, st *syncState) error {
	var errs []error
	if len(st.claims.Finished) > 0 {
		pods := make([]*corev1.Pod, 0, len(st.claims.Finished))
		for _, p := range st.claimed {
			for _, name := range st.claims.Finished {
				if p.Name == name {
					pods = append(pods, p)
				}
			}
		}
		// No lifecycle: a finished pod has nothing left for a preDelete hook to drain.
		errs = append(errs, c.pods.DeletePods(ctx, st.cs, nil, pods, nil, metav1.NewTime(st.now)))
	}
	errs = append(errs, forEach(st.claims.Orphans, func(name string) error {
		err := c.kubeClient.CoreV1().PersistentVolumeClaims(st.cs.Namespace).Delete(ctx, name, metav1.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("deleting claim %s no pod uses: %w", name, err)
		}
		klog.FromContext(ctx).V(2).Info("Deleted claim no pod uses (PVC reuse is off)", "claim", klog.KRef(st.cs.Namespace, name))
		return nil
	}))
	return errors.Join(errs...)
}

// stillReusable reads the claims of a free instance id from the API server, not the
// cache: a claim the cache shows alive may already be going (deleted with its pod by
// this controller), and a new pod bound to a terminating claim would never start.
func (c *Controller) stillReusable(ctx context.Context, cs *v1beta1.CloneSet, id string) (bool, error) {
	for _, tmpl := range cs.Spec.VolumeClaimTemplates {
		claim, err := c.kubeClient.CoreV1().PersistentVolumeClaims(cs.Namespace).Get(ctx, claimName(tmpl.Name, cs.Name+"-"+id), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue // created afresh with the pod
		}
		if err != nil {
			return false, fmt.Errorf("reading claim of instance %s: %w", id, err)
		}
		if claim.DeletionTimestamp != nil {
			return false, nil
		}
	}
	return true, nil
}
