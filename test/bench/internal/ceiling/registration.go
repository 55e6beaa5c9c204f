package ceiling

import (
	"context"
	"fmt"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/test/bench/internal/webhookmetrics"
)

// registration is the stack's Pod webhook MutatingWebhookConfiguration, saved so that a
// batch can run without it and the next with it again.
type registration struct {
	kube  kubernetes.Interface
	saved *admissionregistrationv1.MutatingWebhookConfiguration
	on    bool
}

func saveRegistration(ctx context.Context, kube kubernetes.Interface) (*registration, error) {
	c, err := kube.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("the Pod webhook's registration: %w", err)
	}
	return &registration{kube: kube, saved: c, on: true}, nil
}

// set registers the webhook or removes its registration, then waits until
// kube-apiserver's admission chain has seen the change: a dry-run pod create (the
// webhook's sideEffects are NoneOnDryRun, so it is called on dry runs) counts as a call
// in kube-apiserver's metrics exactly when the webhook is registered.
func (r *registration) set(ctx context.Context, kube kubernetes.Interface, on bool) error {
	if on == r.on {
		return nil
	}
	mwc := kube.AdmissionregistrationV1().MutatingWebhookConfigurations()
	if on {
		c := r.saved.DeepCopy()
		c.ResourceVersion, c.UID, c.CreationTimestamp, c.ManagedFields, c.Generation = "", "", metav1.Time{}, nil, 0
		if _, err := mwc.Create(ctx, c, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("registering the Pod webhook: %w", err)
		}
	} else if err := mwc.Delete(ctx, podwebhook.ConfigurationName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("removing the Pod webhook's registration: %w", err)
	}
	r.on = on
	// The probe asks for launch priority, so the registration's match condition sends it
	// to the webhook (the batch's pods, which nothing would change, are not sent).
	probe := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "ceiling-probe",
			Annotations: map[string]string{pub.ContainerLaunchPriorityKey: pub.ContainerLaunchOrdered}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
	}
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		before, err := webhookmetrics.Scrape(ctx, kube, WebhookName, "CREATE")
		if err != nil {
			return false, nil
		}
		if _, err := kube.CoreV1().Pods(namespace).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
			return false, nil
		}
		after, err := webhookmetrics.Scrape(ctx, kube, WebhookName, "CREATE")
		if err != nil {
			return false, nil
		}
		called := after.Count > before.Count
		return called == on, nil
	})
	if err != nil {
		return fmt.Errorf("kube-apiserver did not see the Pod webhook registered=%t: %w", on, err)
	}
	return nil
}

// restore registers the webhook again if a batch left it removed.
func (r *registration) restore(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return r.set(ctx, r.kube, true)
}
