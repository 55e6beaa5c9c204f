package uniteddeployment_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/uniteddeployment"
)

func validUD() *apps.UnitedDeployment {
	labels := map[string]string{"app": "ud"}
	in := &v1alpha1.UnitedDeployment{
		ObjectMeta: metav1.ObjectMeta{Name: "ud", Namespace: metav1.NamespaceDefault},
		Spec: v1alpha1.UnitedDeploymentSpec{
			Replicas: new(int32(10)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: v1alpha1.SubsetTemplate{CloneSetTemplate: &v1alpha1.CloneSetTemplateSpec{Spec: v1alpha1.CloneSetSpec{
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}}},
			}}},
			Topology: v1alpha1.Topology{Subsets: []v1alpha1.Subset{{Name: "a"}, {Name: "b"}}},
		},
	}
	scheme.Scheme.Default(in)
	out := &apps.UnitedDeployment{}
	if err := scheme.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

func TestTable(t *testing.T) {
	ud := validUD()
	ud.Status = apps.UnitedDeploymentStatus{Replicas: 9, UpdatedReplicas: 4, ReadyReplicas: 8}
	tbl, err := uniteddeployment.TableConvertor.ConvertToTable(context.Background(), ud, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range tbl.ColumnDefinitions {
		names = append(names, c.Name)
	}
	if got, want := strings.Join(names, " "), "Name DESIRED CURRENT UPDATED READY AGE"; !strings.EqualFold(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
	if c := tbl.Rows[0].Cells; c[0] != "ud" || c[1] != int64(10) || c[2] != int64(9) || c[3] != int64(4) || c[4] != int64(8) {
		t.Errorf("row %v", c)
	}
}

// A UnitedDeployment asks for spec.replicas pods (deletion protection reads it so).
func TestActivePods(t *testing.T) {
	if n, field, ok := uniteddeployment.Kind.ActivePods(validUD()); !ok || n != 10 || field != "spec.replicas" {
		t.Errorf("ActivePods = %d %q %v, want 10 spec.replicas", n, field, ok)
	}
}
