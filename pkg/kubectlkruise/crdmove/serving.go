package crdmove

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	authnv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// freezeName names the ValidatingAdmissionPolicy and its binding.
const freezeName = "kruise-native-migration-freeze"

// freeze denies every write to the CRD-served Kruise kinds except the migrating user's.
// Admission in kube-apiserver sees only what kube-apiserver serves itself, so the
// policy stops acting on these groups at the switch: kruise-apiserver is reached by
// proxy.
func freeze(ctx context.Context, c *Clients, o *Options) error {
	review, err := c.KubeTyped.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authnv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("who am I (SelfSubjectReview): %w", err)
	}
	user := review.Status.UserInfo.Username
	policy := &admissionv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: freezeName},
		Spec: admissionv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: ptr.To(admissionv1.Fail),
			MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionv1.RuleWithOperations{
					Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update, admissionv1.Delete},
					Rule:       admissionv1.Rule{APIGroups: o.Groups, APIVersions: []string{"*"}, Resources: []string{"*/*"}}, // every resource and subresource
				},
			}}},
			Validations: []admissionv1.Validation{{
				Expression: "request.userInfo.username == " + strconv.Quote(user),
				Message:    "the Kruise kinds are being moved to Kruise Native (kubectl kruise migrate-from-crds); writes resume when it finishes",
			}},
		},
	}
	binding := &admissionv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: freezeName},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        freezeName,
			ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny},
		},
	}
	if _, err := c.KubeTyped.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, policy, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating ValidatingAdmissionPolicy %s: %w", freezeName, err)
	}
	if _, err := c.KubeTyped.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating ValidatingAdmissionPolicyBinding %s: %w", freezeName, err)
	}
	return nil
}

// waitFrozen waits until the policy denies a write: a server-side dry-run update of
// probe by another (impersonated, all-powerful) user. kube-apiserver applies a new
// policy once its informer has it.
func waitFrozen(ctx context.Context, c *Clients, o *Options, plans []kindPlan) error {
	var probe *unstructured.Unstructured
	var p kindPlan
	for _, kp := range plans {
		if len(kp.Objects) > 0 {
			probe, p = &kp.Objects[0], kp
			break
		}
	}
	if probe == nil || c.KubeConfig == nil {
		return nil // nothing to lose
	}
	cfg := rest.CopyConfig(c.KubeConfig)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: "kruise-native:migration-freeze-probe", Groups: []string{"system:masters"}}
	probeClient, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, o.Timeout, true, func(ctx context.Context) (bool, error) {
		cur, err := probeClient.Resource(p.gvr()).Namespace(probe.GetNamespace()).Get(ctx, probe.GetName(), metav1.GetOptions{})
		if err != nil {
			return false, fmt.Errorf("freeze probe: %w", err)
		}
		_, err = probeClient.Resource(p.gvr()).Namespace(probe.GetNamespace()).Update(ctx, cur, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
		return err != nil && strings.Contains(err.Error(), freezeName), nil
	})
}

func unfreeze(ctx context.Context, c *Clients) error {
	if err := c.KubeTyped.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Delete(ctx, freezeName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting ValidatingAdmissionPolicyBinding %s: %w", freezeName, err)
	}
	if err := c.KubeTyped.AdmissionregistrationV1().ValidatingAdmissionPolicies().Delete(ctx, freezeName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting ValidatingAdmissionPolicy %s: %w", freezeName, err)
	}
	return nil
}

// versionPriority: within a group the highest is the preferred version, v1beta1 (as
// the chart registers them).
func versionPriority(version string) int64 {
	if version == "v1beta1" {
		return 100
	}
	return 50
}

// switchAPIServices points every Kruise APIService at kruise-apiserver, one update each,
// and returns how long each took to become Available by kruise-apiserver's own check.
func switchAPIServices(ctx context.Context, c *Clients, o *Options, s *state) (map[string]time.Duration, error) {
	took := map[string]time.Duration{}
	sent := map[string]time.Time{}
	for _, a := range s.APIServices {
		if a.points(o) {
			continue
		}
		sent[a.Name] = time.Now()
		if err := pointAt(ctx, c, o, a); err != nil {
			return took, err
		}
		if o.interrupted("switch", len(sent)) {
			return took, ErrInterrupted
		}
	}
	for _, a := range s.APIServices {
		err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, o.Timeout, true, func(ctx context.Context) (bool, error) {
			obj, err := c.Kube.Resource(apiServiceGVR).Get(ctx, a.Name, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			ok, reason := apiService{Obj: obj}.available()
			return ok && reason != "Local", nil
		})
		if err != nil {
			return took, fmt.Errorf("APIService %s did not become Available on kruise-apiserver within %s: its group/version answers 503 (the garbage collector waits; nothing is deleted); fix kruise-apiserver or run --rollback: %w", a.Name, o.Timeout, err)
		}
		if at, ok := sent[a.Name]; ok {
			took[a.Name] = time.Since(at)
		}
	}
	return took, nil
}

// pointAt updates (or creates) one APIService to proxy to kruise-apiserver. Dropping the
// automanaged label takes it away from the aggregator's autoregistration, which would
// otherwise put the CRDs' local spec back.
func pointAt(ctx context.Context, c *Clients, o *Options, a apiService) error {
	spec := map[string]any{
		"group":                a.Group,
		"version":              a.Version,
		"groupPriorityMinimum": int64(1000),
		"versionPriority":      versionPriority(a.Version),
		"service":              map[string]any{"namespace": o.ServiceNamespace, "name": o.ServiceName, "port": int64(o.ServicePort)},
		"caBundle":             base64.StdEncoding.EncodeToString(o.CABundle),
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := c.Kube.Resource(apiServiceGVR).Get(ctx, a.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "spec": spec}}
			obj.SetName(a.Name)
			obj.SetLabels(map[string]string{"app.kubernetes.io/part-of": "kruise-native"})
			_, err = c.Kube.Resource(apiServiceGVR).Create(ctx, obj, metav1.CreateOptions{})
			return err
		}
		if err != nil {
			return err
		}
		labels := cur.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		delete(labels, automanagedLabel)
		labels["app.kubernetes.io/part-of"] = "kruise-native"
		cur.SetLabels(labels)
		cur.Object["spec"] = spec
		_, err = c.Kube.Resource(apiServiceGVR).Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
}

// pointBack makes an APIService local again and hands it back to autoregistration: the
// group/version is served by the CRDs from that write on.
func pointBack(ctx context.Context, c *Clients, a apiService) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := c.Kube.Resource(apiServiceGVR).Get(ctx, a.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		labels := cur.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		delete(labels, "app.kubernetes.io/part-of")
		labels[automanagedLabel] = "true"
		cur.SetLabels(labels)
		cur.Object["spec"] = map[string]any{"group": a.Group, "version": a.Version, "groupPriorityMinimum": int64(1000), "versionPriority": int64(100)}
		_, err = c.Kube.Resource(apiServiceGVR).Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
}

// setServed sets every version of a CRD unserved (recording which were served and when),
// or with restore serves the recorded ones again.
func setServed(ctx context.Context, c *Clients, cr crd, restore bool) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := c.Kube.Resource(crdGVR).Get(ctx, cr.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		a := cur.GetAnnotations()
		if a == nil {
			a = map[string]string{}
		}
		versions, _, _ := unstructured.NestedSlice(cur.Object, "spec", "versions")
		if restore {
			rec := strings.Split(a[servedVersionsAnnotation], ",")
			for _, v := range versions {
				m := v.(map[string]any)
				m["served"] = slices.Contains(rec, m["name"].(string))
			}
			delete(a, servedVersionsAnnotation)
			delete(a, unservedAtAnnotation)
		} else {
			var served []string
			for _, v := range versions {
				m := v.(map[string]any)
				if s, _ := m["served"].(bool); s {
					served = append(served, m["name"].(string))
				}
				m["served"] = false
			}
			if _, ok := a[servedVersionsAnnotation]; !ok {
				a[servedVersionsAnnotation] = strings.Join(served, ",")
			}
			if _, ok := a[unservedAtAnnotation]; !ok {
				a[unservedAtAnnotation] = time.Now().UTC().Format(time.RFC3339)
			}
		}
		cur.SetAnnotations(a)
		if err := unstructured.SetNestedSlice(cur.Object, versions, "spec", "versions"); err != nil {
			return err
		}
		_, err = c.Kube.Resource(crdGVR).Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
}

// drainUntil is when the last unserve step's storage teardown is surely over.
func drainUntil(s *state, wait time.Duration) time.Time {
	var last time.Time
	for _, cr := range s.CRDs {
		if at, err := time.Parse(time.RFC3339, cr.Obj.GetAnnotations()[unservedAtAnnotation]); err == nil && at.After(last) {
			last = at
		}
	}
	// the annotation has whole seconds: round up
	return last.Add(time.Second + wait)
}

// deleteCRDs deletes the Kruise CRDs and waits until they are gone (their objects
// deleted from kube's etcd by apiextensions-apiserver).
func deleteCRDs(ctx context.Context, c *Clients, o *Options, s *state) error {
	for _, cr := range s.CRDs {
		err := c.Kube.Resource(crdGVR).Delete(ctx, cr.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr.To(cr.Obj.GetUID())}})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting CRD %s: %w", cr.Name, err)
		}
	}
	return wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, o.Timeout, true, func(ctx context.Context) (bool, error) {
		for _, cr := range s.CRDs {
			if _, err := c.Kube.Resource(crdGVR).Get(ctx, cr.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return false, nil
			}
		}
		return true, nil
	})
}
