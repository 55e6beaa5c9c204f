package cloneset

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func TestNewPod(t *testing.T) {
	tmpl := &corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}},
			Volumes: []corev1.Volume{{Name: "data"}}},
	}
	base := func() *v1beta1.CloneSet {
		return &v1beta1.CloneSet{
			ObjectMeta: metav1.ObjectMeta{Name: "cs", Namespace: "ns", UID: "uid"},
			Spec: v1beta1.CloneSetSpec{
				Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}},
				VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}},
			},
		}
	}
	gates := func(p *corev1.Pod) []corev1.PodConditionType {
		var out []corev1.PodConditionType
		for _, g := range p.Spec.ReadinessGates {
			out = append(out, g.ConditionType)
		}
		return out
	}

	cs := base()
	ref := *metav1.NewControllerRef(cs, podOwnerKind)
	pod := newPod(cs, ref, tmpl, "cs-rev1", "abcde")
	if pod.Name != "cs-abcde" || pod.Labels[pub.ControllerRevisionHashLabelKey] != "cs-rev1" || pod.Labels[pub.CloneSetInstanceIDKey] != "abcde" {
		t.Fatalf("name %s labels %v", pod.Name, pod.Labels)
	}
	if ref := metav1.GetControllerOf(pod); ref == nil || ref.UID != "uid" || ref.Kind != "CloneSet" || ref.APIVersion != "apps.kruise.io/v1alpha1" {
		t.Fatalf("controller ref %v", ref)
	}
	if v := pod.Spec.Volumes[0]; v.PersistentVolumeClaim == nil || v.PersistentVolumeClaim.ClaimName != "data-cs-abcde" {
		t.Fatalf("template volume not replaced by the instance's claim: %+v", v)
	}
	if tmpl.Labels[pub.ControllerRevisionHashLabelKey] != "" || tmpl.Spec.Volumes[0].PersistentVolumeClaim != nil {
		t.Fatal("newPod modified the template")
	}
	if g := gates(pod); len(g) != 0 {
		t.Fatalf("a ReCreate CloneSet's pod got readiness gates %v: each costs a status write", g)
	}

	cs.Spec.UpdateStrategy = v1beta1.CloneSetUpdateStrategy{Type: v1beta1.RollingUpdateCloneSetUpdateStrategyType,
		RollingUpdate: &v1beta1.RollingUpdateCloneSetStrategy{PodUpdatePolicy: v1beta1.InPlaceIfPossibleCloneSetPodUpdateStrategyType}}
	if g := gates(newPod(cs, ref, tmpl, "r", "b")); len(g) != 1 || g[0] != pub.InPlaceUpdateReady {
		t.Fatalf("in-place without a grace period: gates %v, want [InPlaceUpdateReady] as OpenKruise", g)
	}
	cs.Spec.UpdateStrategy.RollingUpdate.PodUpdatePolicy = v1beta1.InPlaceOnlyCloneSetPodUpdateStrategyType
	if g := gates(newPod(cs, ref, tmpl, "r", "d")); len(g) != 1 || g[0] != pub.InPlaceUpdateReady {
		t.Fatalf("InPlaceOnly: gates %v, want [InPlaceUpdateReady]", g)
	}
	cs.Spec.UpdateStrategy.RollingUpdate.PodUpdatePolicy = v1beta1.InPlaceIfPossibleCloneSetPodUpdateStrategyType
	cs.Spec.UpdateStrategy.RollingUpdate.InPlaceUpdateStrategy = &pub.InPlaceUpdateStrategy{GracePeriodSeconds: 10}
	if g := gates(newPod(cs, ref, tmpl, "r", "c")); len(g) != 1 || g[0] != pub.InPlaceUpdateReady {
		t.Fatalf("in-place with a grace period: gates %v, want [InPlaceUpdateReady]", g)
	}
}
