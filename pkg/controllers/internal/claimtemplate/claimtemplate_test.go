package claimtemplate

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func template(name, size string) corev1.PersistentVolumeClaim {
	return corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"l": name}},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)}},
		},
	}
}

func TestHash(t *testing.T) {
	a, b := template("a", "1Gi"), template("b", "1Gi")
	relabelled := a.DeepCopy()
	relabelled.Labels = map[string]string{"other": "x"}
	cases := []struct {
		name       string
		x, y       []corev1.PersistentVolumeClaim
		wantEquals bool
	}{
		{"same templates", []corev1.PersistentVolumeClaim{a, b}, []corev1.PersistentVolumeClaim{a, b}, true},
		{"order does not matter", []corev1.PersistentVolumeClaim{a, b}, []corev1.PersistentVolumeClaim{b, a}, true},
		{"claim metadata beyond the name does not matter", []corev1.PersistentVolumeClaim{a}, []corev1.PersistentVolumeClaim{*relabelled}, true},
		{"size", []corev1.PersistentVolumeClaim{a}, []corev1.PersistentVolumeClaim{template("a", "2Gi")}, false},
		{"renamed", []corev1.PersistentVolumeClaim{a}, []corev1.PersistentVolumeClaim{template("c", "1Gi")}, false},
		{"one more", []corev1.PersistentVolumeClaim{a}, []corev1.PersistentVolumeClaim{a, b}, false},
		{"none and none", nil, []corev1.PersistentVolumeClaim{}, true},
		{"none and one", nil, []corev1.PersistentVolumeClaim{a}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Hash(tc.x) == Hash(tc.y); got != tc.wantEquals {
				t.Errorf("Hash(x) == Hash(y): %v, want %v (%q, %q)", got, tc.wantEquals, Hash(tc.x), Hash(tc.y))
			}
		})
	}
	if Hash(nil) != "" {
		t.Errorf("Hash(nil) = %q, want empty", Hash(nil))
	}
}

func TestInPlaceAllowed(t *testing.T) {
	rev := func(ann map[string]string) *appsv1.ControllerRevision {
		return &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Annotations: ann}}
	}
	one := Annotations([]corev1.PersistentVolumeClaim{template("a", "1Gi")})
	two := Annotations([]corev1.PersistentVolumeClaim{template("a", "2Gi")})
	none := Annotations(nil)
	cases := []struct {
		name     string
		from, to *appsv1.ControllerRevision
		want     bool
	}{
		{"same claims", rev(one), rev(one), true},
		{"claims changed", rev(one), rev(two), false},
		{"claims added", rev(none), rev(one), false},
		{"claims removed", rev(one), rev(none), false},
		{"no claims either side", rev(none), rev(none), true},
		{"old revision made before the annotation", rev(nil), rev(two), true},
		{"new revision without the annotation", rev(one), rev(map[string]string{"other": "x"}), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := InPlaceAllowed(tc.from, tc.to); got != tc.want {
				t.Errorf("InPlaceAllowed = %v, want %v", got, tc.want)
			}
		})
	}
}
