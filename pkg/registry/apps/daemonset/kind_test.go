package daemonset_test

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/daemonset"
	"github.com/kruise-native/kruise-native/pkg/registry/registrytest"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

// validDaemonSet is a DaemonSet as the registry receives it: decoded from v1alpha1 and defaulted.
func validDaemonSet() *apps.DaemonSet {
	in := &v1alpha1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: metav1.NamespaceDefault},
		Spec: v1alpha1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "agent:1"}}},
			},
		},
	}
	scheme.Scheme.Default(in)
	out := &apps.DaemonSet{}
	if err := scheme.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

// Deletion protection counts the pods a DaemonSet runs or is due to run: it has no
// replicas, so the count comes from its status.
func TestActivePods(t *testing.T) {
	cases := []struct {
		name   string
		status apps.DaemonSetStatus
		want   int32
	}{
		{"new, nothing scheduled", apps.DaemonSetStatus{}, 0},
		{"running on every desired node", apps.DaemonSetStatus{DesiredNumberScheduled: 3, CurrentNumberScheduled: 3}, 3},
		{"pods still to create", apps.DaemonSetStatus{DesiredNumberScheduled: 3, CurrentNumberScheduled: 1}, 3},
		{"no node eligible, pods still leaving", apps.DaemonSetStatus{CurrentNumberScheduled: 1, NumberMisscheduled: 2}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := validDaemonSet()
			ds.Status = tc.status
			got, fieldName, ok := daemonset.Kind.ActivePods(ds)
			if !ok || got != tc.want || !strings.Contains(fieldName, "status.desiredNumberScheduled") {
				t.Fatalf("ActivePods = %d, %q, %v; want %d from status.desiredNumberScheduled", got, fieldName, ok, tc.want)
			}
		})
	}
	if _, _, ok := daemonset.Kind.ActivePods(&apps.CloneSet{}); ok {
		t.Errorf("ActivePods accepted an object of another kind")
	}
}

func TestTable(t *testing.T) {
	ds := validDaemonSet()
	ds.Status = apps.DaemonSetStatus{DesiredNumberScheduled: 4, CurrentNumberScheduled: 3, NumberReady: 2, UpdatedNumberScheduled: 1, NumberAvailable: 2}
	tbl, err := daemonset.TableConvertor.ConvertToTable(context.Background(), ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range tbl.ColumnDefinitions {
		if c.Priority == 0 {
			names = append(names, c.Name)
		} else {
			names = append(names, "wide:"+c.Name)
		}
	}
	if got, want := strings.Join(names, " "), "Name DESIRED CURRENT READY UP-TO-DATE AVAILABLE AGE wide:CONTAINERS wide:IMAGES"; !strings.EqualFold(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
	cells := tbl.Rows[0].Cells
	if cells[0] != "agent" || cells[1] != int64(4) || cells[2] != int64(3) || cells[3] != int64(2) || cells[4] != int64(1) || cells[5] != int64(2) ||
		cells[7] != "agent" || cells[8] != "agent:1" {
		t.Errorf("row %v", cells)
	}
}

// Rollback restores a revision's template, as for every kind with rollback.
func TestRollback(t *testing.T) {
	var revisions []appsv1.ControllerRevision
	s := registrytest.Endpoints(t, daemonset.Kind, resource.Deps{
		Revisions: func(context.Context, string) ([]appsv1.ControllerRevision, error) { return revisions, nil },
	})
	if s.Scale != nil {
		t.Errorf("a DaemonSet has no scale subresource")
	}
	ctx := registrytest.Ctx(metav1.NamespaceDefault)
	obj, err := s.Main.Create(ctx, validDaemonSet(), rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds := obj.(*apps.DaemonSet)
	for i, image := range []string{"agent:0", "agent:1"} {
		tmpl := ds.Spec.Template.DeepCopy()
		tmpl.Spec.Containers[0].Image = image
		data, err := revisiondata.Encode(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		revisions = append(revisions, appsv1.ControllerRevision{
			ObjectMeta: metav1.ObjectMeta{Name: image, Namespace: ds.Namespace,
				OwnerReferences: []metav1.OwnerReference{{UID: ds.UID, Controller: ptr.To(true), Name: ds.Name, Kind: "DaemonSet"}}},
			Revision: int64(i + 1),
			Data:     runtime.RawExtension{Raw: data},
		})
	}
	out, err := s.Rollback.Create(ctx, ds.Name, &apps.DaemonSetRollback{}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if img := out.(*apps.DaemonSet).Spec.Template.Spec.Containers[0].Image; img != "agent:0" {
		t.Fatalf("rollback to the previous revision: image %s, want agent:0", img)
	}
}
