package apibench

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	kubeappsv1 "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// cloneSetBody is the JSON of a typical CloneSet (one container with requests, probes,
// env and a few labels), the same bytes for both servers but for the group. It carries
// the defaults kruise-apiserver would apply (the pod template's among them), as
// OpenKruise's defaulting webhook applies them to its CRD's objects: both servers then
// store, list and send in watch events the same fields, and the comparison measures the
// servers rather than the CRD's objects being a third smaller.
func cloneSetBody(group, name string) ([]byte, error) {
	b, err := json.Marshal(cloneSet(group, name))
	if err != nil {
		return nil, fmt.Errorf("encoding CloneSet %s: %w", name, err)
	}
	return b, nil
}

// cloneSet is the defaulted CloneSet cloneSetBody encodes.
func cloneSet(group, name string) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name, "tier": "web", "bench": "api"}
	cs := v1alpha1.CloneSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: group + "/v1alpha1", Kind: "CloneSet"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"bench": "api"}},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:  "main",
					Image: "nginx:1.25",
					Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
					Env:   []corev1.EnvVar{{Name: "MODE", Value: "production"}, {Name: "LOG_LEVEL", Value: "info"}},
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi"),
					}},
					ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{
						HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http")},
					}},
				}}},
			},
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{
				Type:           v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType,
				MaxUnavailable: ptr.To(intstr.FromString("20%")),
			},
		},
	}
	v1alpha1.SetObjectDefaults_CloneSet(&cs)
	return &cs
}

// deploymentBody is the built-in peer of cloneSetBody: an apps/v1 Deployment of the
// same replicas, selector, pod template and maxUnavailable, with kube-apiserver's own
// defaults already in it (kube's defaulting functions), so that what is sent is what
// is stored, as for the CloneSet.
func deploymentBody(name string) ([]byte, error) {
	cs := cloneSet("apps.kruise.io", name)
	d := appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: cs.ObjectMeta,
		Spec: appsv1.DeploymentSpec{
			Replicas: cs.Spec.Replicas,
			Selector: cs.Spec.Selector,
			Template: cs.Spec.Template,
			Strategy: appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: cs.Spec.UpdateStrategy.MaxUnavailable},
			},
		},
	}
	kubeappsv1.SetObjectDefaults_Deployment(&d)
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encoding Deployment %s: %w", name, err)
	}
	return b, nil
}

func objectName(i int) string { return fmt.Sprintf("cs-%05d", i) }

// keptAllFields reports the first field of the sent JSON object that the stored one
// lacks or holds with another value; the server may add fields (defaults, metadata).
// Status is left out: with a status subresource both servers reset it on create.
func keptAllFields(sent, stored []byte) error {
	var a, b map[string]any
	if err := json.Unmarshal(sent, &a); err != nil {
		return fmt.Errorf("decoding what was sent: %w", err)
	}
	if err := json.Unmarshal(stored, &b); err != nil {
		return fmt.Errorf("decoding what was stored: %w", err)
	}
	delete(a, "status")
	return contains(a, b, "")
}

func contains(sent, stored any, path string) error {
	switch s := sent.(type) {
	case map[string]any:
		m, ok := stored.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: stored %T, sent an object", path, stored)
		}
		for k, v := range s {
			sv, ok := m[k]
			if !ok {
				return fmt.Errorf("%s.%s: dropped", path, k)
			}
			if err := contains(v, sv, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		l, ok := stored.([]any)
		if !ok || len(l) != len(s) {
			return fmt.Errorf("%s: stored %v, sent %d items", path, stored, len(s))
		}
		for i := range s {
			if err := contains(s[i], l[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	default:
		if sent != stored {
			return fmt.Errorf("%s: stored %v, sent %v", path, stored, sent)
		}
	}
	return nil
}
