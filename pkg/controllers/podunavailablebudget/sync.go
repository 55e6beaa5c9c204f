package podunavailablebudget

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

// Event reasons.
const (
	reasonTargetNotFound = "TargetNotFound"
	reasonInvalidBudget  = "InvalidBudget"
)

func (c *Controller) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, err
	}
	pub, err := c.pubs.PodUnavailableBudgets(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	logger := klog.FromContext(ctx).WithValues("podunavailablebudget", klog.KObj(pub))

	pods, guarded, total, err := c.podsOf(ctx, pub)
	if err != nil {
		return 0, err
	}
	if err := c.markRelated(ctx, pub, guarded); err != nil {
		return 0, err
	}
	now := c.now()
	count, err := podbudget.Compute(&pub.Spec, total, pods, pub.Status.DisruptedPods, pub.Status.UnavailablePods, now)
	if err != nil {
		// validation keeps malformed budgets out; say so rather than loop
		c.recorder.Eventf(pub, corev1.EventTypeWarning, reasonInvalidBudget, "Cannot count the budget: %v", err)
		return 0, nil
	}
	status := policyv1beta1.PodUnavailableBudgetStatus{
		ObservedGeneration: pub.Generation,
		DisruptedPods:      nilIfEmpty(count.Disrupted),
		UnavailablePods:    nilIfEmpty(count.Unavailable),
		UnavailableAllowed: count.Allowed,
		CurrentAvailable:   count.Current,
		DesiredAvailable:   count.Desired,
		TotalReplicas:      count.Total,
	}
	recheck := count.RecheckAfter
	if polled(pub.Spec.TargetReference) && (recheck == 0 || recheck > targetPoll) {
		recheck = targetPoll
	}
	if apiequality.Semantic.DeepEqual(status, pub.Status) {
		return recheck, nil
	}
	out := pub.DeepCopy()
	out.Status = status
	// The cached resourceVersion: if the webhook spent the budget since, this write
	// conflicts and the retry counts with its records.
	if _, err := c.kruiseClient.PolicyV1beta1().PodUnavailableBudgets(ns).UpdateStatus(ctx, out, metav1.UpdateOptions{}); err != nil {
		return 0, fmt.Errorf("writing the status of PodUnavailableBudget %s: %w", key, err)
	}
	logger.V(4).Info("Wrote status", "allowed", count.Allowed, "current", count.Current, "desired", count.Desired, "total", count.Total)
	return recheck, nil
}

// targetPoll is how often a budget re-reads an apps/v1 target, whose changes it does
// not watch (a replicas change shows in pod events anyway; a deletion may not, when
// the budget holds the garbage collector back).
const targetPoll = 30 * time.Second

func polled(ref *policyv1beta1.TargetReference) bool {
	if ref == nil {
		return false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	return err == nil && gv.Group != "apps.kruise.io"
}

func nilIfEmpty(m map[string]metav1.Time) map[string]metav1.Time {
	if len(m) == 0 {
		return nil
	}
	return m
}

// podsOf lists the pods the budget guards (as counted, and as cached) and the total
// it counts them against (< 0: the pods themselves).
func (c *Controller) podsOf(ctx context.Context, pub *policyv1beta1.PodUnavailableBudget) ([]podbudget.Pod, []*corev1.Pod, int32, error) {
	total := int32(-1)
	if n, ok := podbudget.TotalOverride(pub); ok {
		total = n
	}
	var (
		sel   *metav1.LabelSelector
		owned func(*corev1.Pod) bool
	)
	switch {
	case pub.Spec.TargetReference != nil:
		t, err := c.targets.Get(ctx, pub.Namespace, pub.Spec.TargetReference)
		if apierrors.IsNotFound(err) {
			c.recorder.Eventf(pub, corev1.EventTypeWarning, reasonTargetNotFound, "%s %s not found",
				pub.Spec.TargetReference.Kind, pub.Spec.TargetReference.Name)
			return nil, nil, max(total, 0), nil
		}
		if err != nil {
			return nil, nil, 0, err
		}
		if total < 0 {
			total = t.Replicas
		}
		sel = t.Selector
		if t.OwnsPodsDirectly {
			owned = func(p *corev1.Pod) bool {
				ref := metav1.GetControllerOf(p)
				return ref != nil && ref.UID == t.UID
			}
		}
	case pub.Spec.Selector != nil:
		sel = pub.Spec.Selector
	default:
		return nil, nil, max(total, 0), nil
	}
	selector, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil || selector.Empty() && pub.Spec.TargetReference != nil {
		return nil, nil, max(total, 0), nil // a target without a selector owns no pods we can tell
	}
	list, err := c.pods.Pods(pub.Namespace).List(selector)
	if err != nil {
		return nil, nil, 0, err
	}
	out := make([]podbudget.Pod, 0, len(list))
	guarded := make([]*corev1.Pod, 0, len(list))
	for _, p := range list {
		if owned != nil && !owned(p) || podbudget.Ignored(pub, p.Labels) {
			continue
		}
		out = append(out, view(p))
		guarded = append(guarded, p)
	}
	return out, guarded, total, nil
}

// view is what the budget counts of a pod: available means running, ready and not in
// the middle of an in-place update.
func view(p *corev1.Pod) podbudget.Pod {
	terminating := p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
	return podbudget.Pod{
		Name:        p.Name,
		Terminating: terminating,
		Available:   !terminating && p.Status.Phase == corev1.PodRunning && podcondition.IsReady(p) && !inplaceupdate.IsInPlaceUpdating(p),
	}
}
