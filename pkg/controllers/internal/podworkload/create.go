package podworkload

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
)

// CreatePods creates pods for owner, each after the claims claimsFor returns for it
// (nil: none; a claim that already exists is fine), in slow-start batches that stop
// after a failing one (batch.SlowStart). Every creation is expected before it is sent,
// and forgotten when it fails or is never attempted, so the next sync neither waits
// for it nor creates it twice. At most batch.Burst pods go out per call: plans cap
// their creations there already, and a longer list is cut, its rest planned again.
func (c *Control) CreatePods(ctx context.Context, owner Object, pods []*corev1.Pod, claimsFor func(*corev1.Pod) []*corev1.PersistentVolumeClaim) error {
	pods = batch.First(pods)
	if len(pods) == 0 {
		return nil
	}
	k := key(owner)
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Name
	}
	c.Scale.Expect(k, expectations.Create, names...)
	attempted, err := batch.SlowStart(pods, ParallelWrites, func(pod *corev1.Pod) error {
		if err := c.createPod(ctx, owner, pod, claimsFor); err != nil {
			c.Scale.Observe(k, expectations.Create, pod.Name)
			return err
		}
		return nil
	})
	for _, pod := range pods[attempted:] {
		c.Scale.Observe(k, expectations.Create, pod.Name)
	}
	return err
}

// createPod creates one pod after its claims. A namespace going away is no error:
// the workload goes with it.
func (c *Control) createPod(ctx context.Context, owner Object, pod *corev1.Pod, claimsFor func(*corev1.Pod) []*corev1.PersistentVolumeClaim) error {
	if claimsFor != nil {
		for _, claim := range claimsFor(pod) {
			if err := c.createClaim(ctx, owner, pod, claim); err != nil {
				return err
			}
		}
	}
	created, err := c.client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{FieldManager: c.Name})
	if apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
		c.Scale.Observe(key(owner), expectations.Create, pod.Name)
		return nil
	}
	if err != nil {
		c.event(owner, corev1.EventTypeWarning, ReasonFailedCreate, c.Text.PodCreateFailed(owner.GetName(), pod.Name, err))
		// No pod name here: CloneSet's are generated per attempt, and a status condition
		// that changes on every retry would be written on every retry (see syncerror).
		return fmt.Errorf("creating pod: %w", err)
	}
	klog.FromContext(ctx).V(2).Info("Created pod", "pod", klog.KObj(created), "revision", created.Labels[pub.ControllerRevisionHashLabelKey])
	c.event(owner, corev1.EventTypeNormal, ReasonSuccessfulCreate, c.Text.PodCreated(owner.GetName(), created.Name))
	return nil
}

func (c *Control) createClaim(ctx context.Context, owner Object, pod *corev1.Pod, claim *corev1.PersistentVolumeClaim) error {
	_, err := c.client.CoreV1().PersistentVolumeClaims(claim.Namespace).Create(ctx, claim, metav1.CreateOptions{FieldManager: c.Name})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	if err != nil {
		c.event(owner, corev1.EventTypeWarning, ReasonFailedCreate, c.Text.ClaimCreateFailed(owner.GetName(), claim.Name, pod.Name, err))
		return fmt.Errorf("creating claim: %w", err) // no generated names, as for pods
	}
	c.event(owner, corev1.EventTypeNormal, ReasonSuccessfulCreate, c.Text.ClaimCreated(owner.GetName(), claim.Name, pod.Name))
	return nil
}

// CreateClaims creates the claims of a pod that already exists (a pending pod whose
// claim went missing cannot start without it).
func (c *Control) CreateClaims(ctx context.Context, owner Object, pod *corev1.Pod, claims []*corev1.PersistentVolumeClaim) error {
	for _, claim := range claims {
		if err := c.createClaim(ctx, owner, pod, claim); err != nil {
			return err
		}
	}
	return nil
}
