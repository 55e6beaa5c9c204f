package ephemeraljob

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/expectations"
)

// toInject picks the target pods to inject now: those without the job's containers,
// as many as spec.parallelism (default 1) leaves room for besides the pods whose
// containers were injected and have not finished.
func toInject(job *v1alpha1.EphemeralJob, targets []*corev1.Pod) []*corev1.Pod {
	inflight := 0
	var pending []*corev1.Pod
	for _, p := range targets {
		v := podState(job, p)
		switch {
		case !v.injected:
			pending = append(pending, p)
		case v.state != stateSucceeded && v.state != stateFailed:
			inflight++
		}
	}
	room := int(ptr.Deref(job.Spec.Parallelism, 1)) - inflight
	if room <= 0 {
		return nil
	}
	return pending[:min(room, len(pending))]
}

// inject adds the job's containers to the pods toInject picks, one patch of the
// pod's ephemeralcontainers subresource each.
func (c *Controller) inject(ctx context.Context, key string, job *v1alpha1.EphemeralJob, targets []*corev1.Pod) error {
	pods := toInject(job, targets)
	if len(pods) == 0 {
		return nil
	}
	patch, err := injectionPatch(job)
	if err != nil {
		return err
	}
	var errs []error
	for _, pod := range pods {
		c.injected.Expect(key, expectations.Create, pod.Name)
		_, err := c.kube.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, patch,
			metav1.PatchOptions{FieldManager: ControllerName}, "ephemeralcontainers")
		switch {
		case err == nil:
			klog.FromContext(ctx).V(2).Info("Injected ephemeral containers", "ephemeralJob", klog.KObj(job), "pod", klog.KObj(pod))
		case apierrors.IsNotFound(err):
			c.injected.Observe(key, expectations.Create, pod.Name)
		default:
			c.injected.Observe(key, expectations.Create, pod.Name)
			c.recorder.Eventf(job, corev1.EventTypeWarning, "CreateFailed", "Failed to create ephemeral containers in pod %s: %v", pod.Name, err)
			errs = append(errs, fmt.Errorf("injecting ephemeral containers into pod %s/%s: %w", pod.Namespace, pod.Name, err))
		}
	}
	return errors.Join(errs...)
}

// injectionPatch is the strategic merge patch that adds the template's containers,
// each with KRUISE_EJOB_ID set to the job's UID (the mark of the job's own containers).
func injectionPatch(job *v1alpha1.EphemeralJob) ([]byte, error) {
	ecs := make([]corev1.EphemeralContainer, 0, len(job.Spec.Template.EphemeralContainers))
	for _, tmpl := range job.Spec.Template.EphemeralContainers {
		ec := tmpl.DeepCopy()
		ec.Env = append(ec.Env, corev1.EnvVar{Name: v1alpha1.EphemeralContainerEnvKey, Value: string(job.UID)})
		ecs = append(ecs, *ec)
	}
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"ephemeralContainers": ecs}})
	if err != nil {
		return nil, fmt.Errorf("marshal ephemeral containers patch: %w", err)
	}
	return patch, nil
}
