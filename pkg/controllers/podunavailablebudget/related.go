package podunavailablebudget

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

// RelatedPubAnnotation names, on a pod, the PodUnavailableBudget that guards it, as
// OpenKruise writes it: tools read it to tell which budget a disruption must respect.
const RelatedPubAnnotation = "kruise.io/related-pub"

// markRelated gives each guarded pod without the annotation this budget's name (one
// metadata patch per pod, at most batch.Burst a sync; the pods' events bring the
// budget back for the rest). A pod already naming a budget keeps it, as in OpenKruise,
// so two budgets over one pod do not take turns rewriting it.
func (c *Controller) markRelated(ctx context.Context, pub *policyv1beta1.PodUnavailableBudget, pods []*corev1.Pod) error {
	var todo []*corev1.Pod
	for _, p := range pods {
		if p.DeletionTimestamp == nil && p.Annotations[RelatedPubAnnotation] == "" {
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"annotations": map[string]string{RelatedPubAnnotation: pub.Name}}})
	if err != nil {
		return err
	}
	return batch.ForEach(batch.First(todo), relatedPatchWorkers, func(p *corev1.Pod) error {
		_, err := c.podPatcher.Patch(ctx, p.Namespace, p.Name, types.MergePatchType, patch)
		if apierrors.IsNotFound(err) {
			return nil // gone meanwhile: nothing to mark
		}
		if err != nil {
			return fmt.Errorf("annotating pod %s/%s with %s: %w", p.Namespace, p.Name, RelatedPubAnnotation, err)
		}
		return nil
	})
}

// relatedPatchWorkers bounds the patches in flight; the client's QPS paces them.
const relatedPatchWorkers = 16
