package kubectlkruise

import (
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubectl/pkg/polymorphichelpers"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// kubectl's expose, through the installed helpers: a CloneSet or Advanced StatefulSet
// gives its matchLabels and its template's ports; an Advanced DaemonSet is refused as
// kubectl refuses a DaemonSet; a Deployment is kubectl's own case.
func TestExposeHelpers(t *testing.T) {
	installExposeHelpers()
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	podSpec := corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Ports: []corev1.ContainerPort{{ContainerPort: 8080}, {ContainerPort: 53, Protocol: corev1.ProtocolUDP}}}}}
	tmpl := corev1.PodTemplateSpec{Spec: podSpec}
	for _, tc := range []struct {
		name         string
		kind         schema.GroupKind
		obj          runtime.Object
		wantExpose   bool
		wantSelector string
		wantErr      string
	}{
		{name: "cloneset v1alpha1", kind: schema.GroupKind{Group: Group, Kind: "CloneSet"},
			obj: &v1alpha1.CloneSet{Spec: v1alpha1.CloneSetSpec{Selector: sel, Template: tmpl}}, wantExpose: true, wantSelector: "app=web"},
		{name: "advanced statefulset v1beta1", kind: schema.GroupKind{Group: Group, Kind: "StatefulSet"},
			obj: &v1beta1.StatefulSet{Spec: v1beta1.StatefulSetSpec{Selector: sel, Template: tmpl}}, wantExpose: true, wantSelector: "app=web"},
		{name: "selector with expressions", kind: schema.GroupKind{Group: Group, Kind: "CloneSet"},
			obj: &v1beta1.CloneSet{Spec: v1beta1.CloneSetSpec{Template: tmpl, Selector: &metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: metav1.LabelSelectorOpExists}}}}},
			wantExpose: true, wantErr: "matchExpressions"},
		{name: "advanced daemonset", kind: schema.GroupKind{Group: Group, Kind: "DaemonSet"}},
		{name: "deployment", kind: schema.GroupKind{Group: "apps", Kind: "Deployment"},
			obj: &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Selector: sel, Template: tmpl}}, wantExpose: true, wantSelector: "app=web"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := polymorphichelpers.CanBeExposedFn(tc.kind); (err == nil) != tc.wantExpose {
				t.Fatalf("CanBeExposed = %v, want exposable %v", err, tc.wantExpose)
			}
			if !tc.wantExpose {
				return
			}
			got, err := polymorphichelpers.MapBasedSelectorForObjectFn(tc.obj)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("selector err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.wantSelector {
				t.Fatalf("selector = %q, %v", got, err)
			}
			ports, err := polymorphichelpers.PortsForObjectFn(tc.obj)
			if err != nil || !reflect.DeepEqual(ports, []string{"8080", "53"}) {
				t.Errorf("ports = %v, %v", ports, err)
			}
			protocols, err := polymorphichelpers.MultiProtocolsForObjectFn(tc.obj)
			if err != nil || !reflect.DeepEqual(protocols, map[string][]string{"8080": {"TCP"}, "53": {"UDP"}}) {
				t.Errorf("protocols = %v, %v", protocols, err)
			}
		})
	}
}
