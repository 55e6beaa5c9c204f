package crdmove

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func apiSvc(name string, service string) apiService {
	version, group, _ := strings.Cut(name, ".")
	obj := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"group": group, "version": version}}}
	if service != "" {
		ns, n, _ := strings.Cut(service, "/")
		obj.Object["spec"].(map[string]any)["service"] = map[string]any{"namespace": ns, "name": n}
	}
	return apiService{Name: name, Group: group, Version: version, Obj: obj}
}

// The steps left depend only on where the cluster is: a run killed anywhere goes on
// from there.
func TestPlanSteps(t *testing.T) {
	o := &Options{ServiceNamespace: "kruise-system", ServiceName: "kruise-apiserver"}
	served := crd{Name: "clonesets.apps.kruise.io", Served: []string{"v1alpha1", "v1beta1"}, Obj: &unstructured.Unstructured{}}
	unserved := crd{Name: "clonesets.apps.kruise.io", Recorded: []string{"v1alpha1", "v1beta1"}, Obj: &unstructured.Unstructured{}}
	ours, local := "kruise-system/kruise-apiserver", ""
	cases := []struct {
		name     string
		s        state
		keepCRDs bool
		want     string
	}{
		{name: "served by CRDs", s: state{CRDs: []crd{served}, APIServices: []apiService{apiSvc("v1beta1.apps.kruise.io", local), apiSvc("v1alpha1.apps.kruise.io", local)}},
			want: "freeze import release switch unserve drain unfreeze delete-crds"},
		{name: "served by CRDs, keep them", keepCRDs: true, s: state{CRDs: []crd{served}, APIServices: []apiService{apiSvc("v1beta1.apps.kruise.io", local)}},
			want: "freeze import release switch unserve unfreeze"},
		{name: "killed during the switch", s: state{Frozen: true, CRDs: []crd{served}, APIServices: []apiService{apiSvc("v1beta1.apps.kruise.io", ours), apiSvc("v1alpha1.apps.kruise.io", local)}},
			want: "switch unserve drain unfreeze delete-crds"},
		{name: "killed after the switch", s: state{Frozen: true, CRDs: []crd{served}, APIServices: []apiService{apiSvc("v1beta1.apps.kruise.io", ours)}},
			want: "unserve drain unfreeze delete-crds"},
		{name: "killed during the drain", s: state{Frozen: true, CRDs: []crd{unserved}, APIServices: []apiService{apiSvc("v1beta1.apps.kruise.io", ours)}},
			want: "drain unfreeze delete-crds"},
		{name: "killed after the unfreeze", s: state{CRDs: []crd{unserved}, APIServices: []apiService{apiSvc("v1beta1.apps.kruise.io", ours)}},
			want: "drain delete-crds"},
		{name: "finished", s: state{APIServices: []apiService{apiSvc("v1beta1.apps.kruise.io", ours)}},
			want: ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o.KeepCRDs = tc.keepCRDs
			s := tc.s
			var names []string
			for _, st := range planSteps(nil, o, &s, nil, !s.switchedAny(o)) {
				names = append(names, st.name)
			}
			if got := strings.Join(names, " "); got != tc.want {
				t.Errorf("steps %q, want %q", got, tc.want)
			}
		})
	}
}

// A local APIService (the CRDs') has no service; ours points at kruise-apiserver.
func TestAPIServiceState(t *testing.T) {
	o := &Options{ServiceNamespace: "kruise-system", ServiceName: "kruise-apiserver"}
	l := apiSvc("v1beta1.apps.kruise.io", "")
	if !l.local() || l.points(o) {
		t.Errorf("local: local()=%v points()=%v", l.local(), l.points(o))
	}
	k := apiSvc("v1beta1.apps.kruise.io", "kruise-system/kruise-apiserver")
	if k.local() || !k.points(o) {
		t.Errorf("ours: local()=%v points()=%v", k.local(), k.points(o))
	}
	other := apiSvc("v1beta1.apps.kruise.io", "elsewhere/server")
	if other.local() || other.points(o) {
		t.Errorf("other: local()=%v points()=%v", other.local(), other.points(o))
	}
	missing := apiService{Name: "v1beta1.policy.kruise.io"}
	if missing.local() || missing.points(o) {
		t.Errorf("missing: local()=%v points()=%v", missing.local(), missing.points(o))
	}
}
