package targetconflict

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func spread(ns, name, apiVersion, kind, target string) *apps.WorkloadSpread {
	return &apps.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: apps.WorkloadSpreadSpec{TargetReference: &apps.TargetReference{APIVersion: apiVersion, Kind: kind, Name: target}}}
}

func podState(ns, name, apiVersion, kind, target string) *apps.PersistentPodState {
	return &apps.PersistentPodState{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: apps.PersistentPodStateSpec{TargetReference: apps.TargetReference{APIVersion: apiVersion, Kind: kind, Name: target}}}
}

// newPlugin is a ready plugin that sees stored as the objects in the store (internal
// objects, given in v1beta1 as the informers hold them).
func newPlugin(t *testing.T, stored ...runtime.Object) *Plugin {
	t.Helper()
	p := New()
	p.watch(
		func(ns string) ([]*v1beta1.WorkloadSpread, error) {
			var out []*v1beta1.WorkloadSpread
			for _, o := range stored {
				if ws, ok := o.(*apps.WorkloadSpread); ok && ws.Namespace == ns {
					r := ws.Spec.TargetReference
					out = append(out, &v1beta1.WorkloadSpread{ObjectMeta: ws.ObjectMeta, Spec: v1beta1.WorkloadSpreadSpec{
						TargetReference: &v1beta1.TargetReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name}}})
				}
			}
			return out, nil
		},
		func(ns string) ([]*v1beta1.PersistentPodState, error) {
			var out []*v1beta1.PersistentPodState
			for _, o := range stored {
				if pps, ok := o.(*apps.PersistentPodState); ok && pps.Namespace == ns {
					r := pps.Spec.TargetReference
					out = append(out, &v1beta1.PersistentPodState{ObjectMeta: pps.ObjectMeta, Spec: v1beta1.PersistentPodStateSpec{
						TargetReference: v1beta1.TargetReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name}}})
				}
			}
			return out, nil
		})
	p.SetReadyFunc(func() bool { return true })
	if err := p.ValidateInitialization(); err != nil {
		t.Fatal(err)
	}
	return p
}

func attrs(obj, old runtime.Object, subresource string) admission.Attributes {
	m := obj.(metav1.Object)
	resource := "workloadspreads"
	kind := "WorkloadSpread"
	if _, ok := obj.(*apps.PersistentPodState); ok {
		resource, kind = "persistentpodstates", "PersistentPodState"
	}
	op := admission.Create
	if old != nil {
		op = admission.Update
	}
	return admission.NewAttributesRecord(obj, old, apps.Kind(kind).WithVersion("v1beta1"), m.GetNamespace(), m.GetName(),
		apps.Resource(resource).WithVersion("v1beta1"), subresource, op, nil, false, nil)
}

// expect fails unless err is nil (other == "") or a 422 at spec.targetRef naming other.
func expect(t *testing.T, err error, other string) {
	t.Helper()
	if other == "" {
		if err != nil {
			t.Fatalf("want admitted, got %v", err)
		}
		return
	}
	if !apierrors.IsInvalid(err) {
		t.Fatalf("want 422 Invalid, got %v", err)
	}
	causes := err.(apierrors.APIStatus).Status().Details.Causes
	if len(causes) != 1 || causes[0].Field != "spec.targetRef" || !strings.Contains(causes[0].Message, `"`+other+`"`) {
		t.Fatalf("want one cause at spec.targetRef naming %s, got %v", other, causes)
	}
}

// OpenKruise's rules across objects of one kind, in
// pkg/webhook/workloadspread/validating/workloadspread_validation.go
// (validateWorkloadSpreadConflict) and
// pkg/webhook/persistentpodstate/validating/persistent_create_update_handler.go
// (validatePerConflict): one object per workload (group, kind, name) and namespace.
func TestUpstreamRules(t *testing.T) {
	const (
		ws  = "workloadspread/validating/workloadspread_validation.go:validateWorkloadSpreadConflict: "
		pps = "persistentpodstate/validating/persistent_create_update_handler.go:validatePerConflict: "
	)
	deleting := func(o *apps.WorkloadSpread) *apps.WorkloadSpread {
		o.DeletionTimestamp = &metav1.Time{}
		return o
	}
	for _, tc := range []struct {
		rule   string
		stored []runtime.Object
		obj    runtime.Object
		other  string // "" = admitted
	}{
		{rule: ws + "a second spread of a workload",
			stored: []runtime.Object{spread("ns", "a", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
			obj:    spread("ns", "b", "apps.kruise.io/v1alpha1", "CloneSet", "web"), other: "a"},
		{rule: ws + "a second spread of a workload, named in another version",
			stored: []runtime.Object{spread("ns", "a", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
			obj:    spread("ns", "b", "apps.kruise.io/v1beta1", "CloneSet", "web"), other: "a"},
		{rule: ws + "another workload of the same name and another group",
			stored: []runtime.Object{spread("ns", "a", "apps.kruise.io/v1beta1", "StatefulSet", "web")},
			obj:    spread("ns", "b", "apps/v1", "StatefulSet", "web")},
		{rule: ws + "another workload",
			stored: []runtime.Object{spread("ns", "a", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
			obj:    spread("ns", "b", "apps.kruise.io/v1alpha1", "CloneSet", "api")},
		{rule: ws + "the same workload name in another namespace",
			stored: []runtime.Object{spread("other", "a", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
			obj:    spread("ns", "b", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
		{rule: ws + "the spread itself (its own create retried)",
			stored: []runtime.Object{spread("ns", "a", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
			obj:    spread("ns", "a", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
		{rule: ws + "the other being deleted (differs: OpenKruise refuses until it is gone)",
			stored: []runtime.Object{deleting(spread("ns", "a", "apps.kruise.io/v1alpha1", "CloneSet", "web"))},
			obj:    spread("ns", "b", "apps.kruise.io/v1alpha1", "CloneSet", "web")},
		{rule: pps + "a second pod state of a workload",
			stored: []runtime.Object{podState("ns", "a", "apps.kruise.io/v1beta1", "StatefulSet", "db")},
			obj:    podState("ns", "b", "apps.kruise.io/v1alpha1", "StatefulSet", "db"), other: "a"},
		{rule: pps + "another workload of the same name and another group",
			stored: []runtime.Object{podState("ns", "a", "apps.kruise.io/v1beta1", "StatefulSet", "db")},
			obj:    podState("ns", "b", "apps/v1", "StatefulSet", "db")},
		{rule: pps + "a spread and a pod state of one workload are no conflict",
			stored: []runtime.Object{spread("ns", "a", "apps/v1", "StatefulSet", "db")},
			obj:    podState("ns", "b", "apps/v1", "StatefulSet", "db")},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			expect(t, newPlugin(t, tc.stored...).Validate(context.Background(), attrs(tc.obj, nil, ""), nil), tc.other)
		})
	}
}

// Objects stored before the rule (or racing each other past it) stay updatable: the
// plugin judges creates only, and validation refuses an update that moves a target.
func TestUpdates(t *testing.T) {
	p := newPlugin(t)
	if p.Handles(admission.Update) || !p.Handles(admission.Create) {
		t.Fatalf("handles update %v, create %v: want creates only", p.Handles(admission.Update), p.Handles(admission.Create))
	}
}

func TestInitialization(t *testing.T) {
	if err := New().ValidateInitialization(); err == nil {
		t.Fatal("initialized without informers")
	}
}
