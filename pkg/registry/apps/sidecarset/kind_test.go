package sidecarset

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/install"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// scheme has the hub and both served versions, with their defaulters and conversions.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// validSidecarSet is a SidecarSet as the registry receives it: decoded from v1alpha1 and defaulted.
func validSidecarSet(t *testing.T) *apps.SidecarSet {
	t.Helper()
	in := &v1alpha1.SidecarSet{
		ObjectMeta: metav1.ObjectMeta{Name: "log", ResourceVersion: "1"},
		Spec: v1alpha1.SidecarSetSpec{
			Selector:   &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Containers: []v1alpha1.SidecarContainer{{Container: corev1.Container{Name: "sidecar1", Image: "busybox:1.36"}}},
		},
	}
	scheme.Default(in)
	out := &apps.SidecarSet{}
	if err := scheme.Convert(in, out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStrategyIsClusterScopedAndValidates(t *testing.T) {
	s, _ := Kind.Strategies(scheme)
	if s.NamespaceScoped() {
		t.Error("SidecarSets are cluster-scoped")
	}
	ss := validSidecarSet(t)
	ss.Status.MatchedPods = 5
	s.PrepareForCreate(context.Background(), ss)
	if ss.Status.MatchedPods != 0 || ss.Generation != 1 {
		t.Errorf("create: want status cleared and generation 1, got %+v generation %d", ss.Status, ss.Generation)
	}
	if errs := s.Validate(context.Background(), ss); len(errs) != 0 {
		t.Errorf("valid SidecarSet rejected: %v", errs)
	}
	ss.Spec.Selector = nil
	if errs := s.Validate(context.Background(), ss); len(errs) != 1 || errs[0].Field != "spec.selector" {
		t.Errorf("want spec.selector required, got %v", errs)
	}
}

func TestUpdateKeepsStatusAndCountsSpecChanges(t *testing.T) {
	s, _ := Kind.Strategies(scheme)
	old := validSidecarSet(t)
	old.Generation, old.Status.MatchedPods = 3, 4

	same := old.DeepCopy()
	same.Status.MatchedPods = 9
	s.PrepareForUpdate(context.Background(), same, old)
	if same.Generation != 3 || same.Status.MatchedPods != 4 {
		t.Errorf("status-only change: want generation 3 and the stored status, got %d %+v", same.Generation, same.Status)
	}

	changed := old.DeepCopy()
	changed.Spec.Containers[0].Image = "busybox:1.37"
	s.PrepareForUpdate(context.Background(), changed, old)
	if changed.Generation != 4 {
		t.Errorf("image change: want generation 4, got %d", changed.Generation)
	}
}

func TestStatusUpdateKeepsSpec(t *testing.T) {
	_, s := Kind.Strategies(scheme)
	old := validSidecarSet(t)
	ss := old.DeepCopy()
	ss.Spec.Containers[0].Image = "evil:1"
	ss.Status = apps.SidecarSetStatus{MatchedPods: 2, UpdatedPods: 1, ReadyPods: 2, UpdatedReadyPods: 1}
	s.PrepareForUpdate(context.Background(), ss, old)
	if ss.Spec.Containers[0].Image != "busybox:1.36" || ss.Status.MatchedPods != 2 {
		t.Errorf("want the stored spec and the new status, got image %s status %+v", ss.Spec.Containers[0].Image, ss.Status)
	}
	ss.Status.UpdatedPods = 3
	if errs := s.ValidateUpdate(context.Background(), ss, old); len(errs) != 1 {
		t.Errorf("want updatedPods > matchedPods rejected, got %v", errs)
	}
}

func TestWarnings(t *testing.T) {
	s, _ := Kind.Strategies(scheme)
	ss := validSidecarSet(t)
	if w := s.WarningsOnCreate(context.Background(), ss); len(w) != 0 {
		t.Errorf("unexpected warnings %v", w)
	}
	ss.Spec.UpdateStrategy.Paused = true
	ss.Spec.UpdateStrategy.Partition = ptr.To(intstr.FromInt32(2))
	ss.Spec.UpdateStrategy.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"canary": "true"}}
	if w := s.WarningsOnCreate(context.Background(), ss); len(w) != 1 || !strings.Contains(w[0], "partition") {
		t.Errorf("want the paused partition/selector warning, got %v", w)
	}
	old := ss.DeepCopy()
	if w := s.WarningsOnUpdate(context.Background(), ss, old); len(w) != 0 {
		t.Errorf("no spec change: want no warnings, got %v", w)
	}
}

func TestTableColumns(t *testing.T) {
	ss := validSidecarSet(t)
	ss.Status = apps.SidecarSetStatus{MatchedPods: 3, UpdatedPods: 2, ReadyPods: 1}
	tbl, err := TableConvertor.ConvertToTable(context.Background(), ss, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range tbl.ColumnDefinitions {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "Name MATCHED UPDATED READY Age" {
		t.Errorf("columns = %s", got)
	}
	if cells := tbl.Rows[0].Cells; cells[0] != "log" || cells[1] != int64(3) || cells[2] != int64(2) || cells[3] != int64(1) {
		t.Errorf("cells = %v", cells)
	}
}
