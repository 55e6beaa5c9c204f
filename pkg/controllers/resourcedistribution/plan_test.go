package resourcedistribution

import (
	"reflect"
	"sort"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

const sourceJSON = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo","labels":{"app":"game"}},"data":{"lives":"3"}}`

func source(t *testing.T, raw string) Source {
	t.Helper()
	rd := &v1alpha1.ResourceDistribution{ObjectMeta: metav1.ObjectMeta{Name: "sample", UID: "rd-uid"},
		Spec: v1alpha1.ResourceDistributionSpec{Resource: runtime.RawExtension{Raw: []byte(raw)}}}
	res, errs := rdcontract.Decode(rd.Spec.Resource.Raw, field.NewPath("spec", "resource"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return Source{Distribution: rd, Resource: res, Hash: rdcontract.Hash(rd.Spec.Resource.Raw)}
}

// ours is the up-to-date copy in ns, changed by mutate.
func ours(src Source, ns string, mutate ...func(*corev1.ConfigMap)) Object {
	cm := src.Desired(ns).(*corev1.ConfigMap)
	cm.UID, cm.ResourceVersion = types.UID("cm-"+ns), "7"
	for _, m := range mutate {
		m(cm)
	}
	return cm
}

func foreign(ns string, owner *metav1.OwnerReference) Object {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "game-demo", Namespace: ns, UID: "theirs"}, Data: map[string]string{"mine": "x"}}
	if owner != nil {
		cm.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	return cm
}

func nsOf(objs []Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetNamespace())
	}
	sort.Strings(out)
	return out
}

func TestCompute(t *testing.T) {
	src := source(t, sourceJSON)
	stale := func(cm *corev1.ConfigMap) {
		cm.Data = map[string]string{"lives": "2"}
		cm.Annotations[v1alpha1.ResourceDistributionHashAnnotation] = "old"
	}
	otherRD := metav1.OwnerReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "ResourceDistribution", Name: "sample",
		UID: "predecessor", Controller: new(true)}
	tests := []struct {
		name      string
		targets   []string
		owned     []Object
		found     map[string]Object
		create    []string
		update    []string
		delete    []string
		replace   []string
		inSync    []string
		conflicts []string
	}{
		{name: "nothing yet: create everywhere", targets: []string{"a", "b"}, create: []string{"a", "b"}},
		{name: "up to date: nothing to write", targets: []string{"a"}, owned: []Object{ours(src, "a")}, inSync: []string{"a"}},
		{name: "source changed: update", targets: []string{"a"}, owned: []Object{ours(src, "a", stale)}, update: []string{"a"}},
		{name: "someone edited a value we distributed: put back", targets: []string{"a"},
			owned: []Object{ours(src, "a", func(cm *corev1.ConfigMap) { cm.Data["lives"] = "99" })}, update: []string{"a"}},
		{name: "someone removed a key we distributed: put back", targets: []string{"a"},
			owned: []Object{ours(src, "a", func(cm *corev1.ConfigMap) { delete(cm.Data, "lives") })}, update: []string{"a"}},
		{name: "a key another controller added beside ours is theirs: no write", targets: []string{"a"},
			owned: []Object{ours(src, "a", func(cm *corev1.ConfigMap) {
				cm.Data["token"] = "filled"
				cm.BinaryData = map[string][]byte{"ca.crt": []byte("x")}
			})}, inSync: []string{"a"}},
		{name: "the source's hash is not the copy's: update, even with the same data", targets: []string{"a"},
			owned:  []Object{ours(src, "a", func(cm *corev1.ConfigMap) { cm.Annotations[v1alpha1.ResourceDistributionHashAnnotation] = "old" })},
			update: []string{"a"}},
		{name: "extra labels and annotations on our copy are kept, not a change", targets: []string{"a"},
			owned:  []Object{ours(src, "a", func(cm *corev1.ConfigMap) { cm.Labels["team"] = "x"; cm.Annotations["note"] = "y" })},
			inSync: []string{"a"}},
		{name: "an immutable copy with old data is replaced", targets: []string{"a"},
			owned: []Object{ours(src, "a", stale, func(cm *corev1.ConfigMap) { cm.Immutable = new(true) })}, replace: []string{"a"}},
		{name: "namespace stopped matching: delete our copy", targets: []string{"a"},
			owned: []Object{ours(src, "a"), ours(src, "b")}, inSync: []string{"a"}, delete: []string{"b"}},
		{name: "a foreign object is a conflict, never written", targets: []string{"a", "b"},
			found: map[string]Object{"b": foreign("b", nil)}, create: []string{"a"}, conflicts: []string{"b"}},
		{name: "a predecessor's copy (other UID) is a conflict until the GC removes it", targets: []string{"a"},
			found: map[string]Object{"a": foreign("a", &otherRD)}, conflicts: []string{"a"}},
		{name: "our copy found by a live read (cache behind) is ours", targets: []string{"a"},
			found: map[string]Object{"a": ours(src, "a", stale)}, update: []string{"a"}},
		{name: "an object without our controller reference handed in as owned is ignored", targets: []string{"a"},
			owned: []Object{foreign("a", nil)}, create: []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Compute(src, rdcontract.TargetSet{Namespaces: tt.targets}, tt.owned, tt.found)
			var conflicts []string
			for ns := range p.Conflicts {
				conflicts = append(conflicts, ns)
			}
			sort.Strings(conflicts)
			check := func(what string, got, want []string) {
				if len(got) == 0 && len(want) == 0 {
					return
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			check("create", nsOf(p.Create), tt.create)
			check("update", nsOf(p.Update), tt.update)
			check("delete", nsOf(p.Delete), tt.delete)
			check("replace", nsOf(p.Replace), tt.replace)
			check("inSync", p.InSync, tt.inSync)
			check("conflicts", conflicts, tt.conflicts)
			for _, o := range append(append(append([]Object{}, p.Update...), p.Delete...), p.Replace...) {
				if !Owned(o, src.Distribution) {
					t.Errorf("%s/%s is written but not ours", o.GetNamespace(), o.GetName())
				}
			}
			for _, o := range p.Update {
				if !UpToDate(o, src.Desired(o.GetNamespace())) {
					t.Errorf("update of %s does not bring it up to date", o.GetNamespace())
				}
				if o.GetResourceVersion() != "7" {
					t.Errorf("update of %s lost the resourceVersion it was read at", o.GetNamespace())
				}
			}
		})
	}
}

func TestDesired(t *testing.T) {
	src := source(t, sourceJSON)
	cm := src.Desired("a").(*corev1.ConfigMap)
	if cm.Namespace != "a" || cm.Name != "game-demo" || cm.Data["lives"] != "3" || cm.Labels["app"] != "game" {
		t.Errorf("copy = %+v", cm)
	}
	if cm.Annotations[v1alpha1.ResourceDistributionFromAnnotation] != "sample" ||
		cm.Annotations[v1alpha1.ResourceDistributionHashAnnotation] != src.Hash || cm.Labels[rdcontract.CopyLabel] != "true" {
		t.Errorf("copy marks = %v %v", cm.Labels, cm.Annotations)
	}
	if ref := metav1.GetControllerOf(cm); ref == nil || ref.UID != "rd-uid" || ref.Kind != "ResourceDistribution" {
		t.Errorf("controller reference = %+v", ref)
	}
	sec := source(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"pull"},"data":{"a":"eA=="},"stringData":{"b":"y"}}`).Desired("a").(*corev1.Secret)
	if string(sec.Data["a"]) != "x" || string(sec.Data["b"]) != "y" || sec.StringData != nil || sec.Type != corev1.SecretTypeOpaque {
		t.Errorf("secret copy = %+v", sec)
	}
}

func TestComputeStatus(t *testing.T) {
	t0, t1 := metav1.Unix(100, 0), metav1.Unix(200, 0)
	f := Failures{}
	f.Add(v1alpha1.ResourceDistributionConflictOccurred, "b", "ConfigMap b/game-demo already exists")
	f.Add(v1alpha1.ResourceDistributionNamespaceNotExists, "c", "namespace not found or is terminating")
	s := ComputeStatus(&v1alpha1.ResourceDistributionStatus{}, 3, 3, 1, f, t0)
	if s.Desired != 3 || s.Succeeded != 1 || s.Failed != 2 || s.ObservedGeneration != 3 || len(s.Conditions) != 6 {
		t.Fatalf("status = %+v", s)
	}
	for _, c := range s.Conditions {
		switch c.Type {
		case v1alpha1.ResourceDistributionConflictOccurred:
			if c.Status != "True" || !reflect.DeepEqual(c.FailedNamespaces, []string{"b"}) || c.Reason == "" {
				t.Errorf("conflict condition = %+v", c)
			}
		case v1alpha1.ResourceDistributionNamespaceNotExists:
			if c.Status != "True" || !reflect.DeepEqual(c.FailedNamespaces, []string{"c"}) {
				t.Errorf("not-exists condition = %+v", c)
			}
		default:
			if c.Status != "False" || c.Reason != "Succeeded" || c.FailedNamespaces != nil {
				t.Errorf("condition %s = %+v", c.Type, c)
			}
		}
	}
	// The same outcome later changes nothing (no status write).
	again := ComputeStatus(&s, 3, 3, 1, f, t1)
	if !reflect.DeepEqual(again, s) {
		t.Errorf("same outcome, status changed:\n%+v\n%+v", again, s)
	}
	if got := NewlyFailed(&s, f, v1alpha1.ResourceDistributionConflictOccurred); len(got) != 0 {
		t.Errorf("newly failed = %v, want none (already reported)", got)
	}
	f.Add(v1alpha1.ResourceDistributionConflictOccurred, "d", "x")
	if got := NewlyFailed(&s, f, v1alpha1.ResourceDistributionConflictOccurred); !reflect.DeepEqual(got, []string{"d"}) {
		t.Errorf("newly failed = %v, want [d]", got)
	}
	// Resolved: False again, with a new transition time.
	resolved := ComputeStatus(&s, 3, 3, 3, Failures{}, t1)
	for _, c := range resolved.Conditions {
		if c.Status != "False" || (c.Type == v1alpha1.ResourceDistributionConflictOccurred && !c.LastTransitionTime.Equal(&t1)) {
			t.Errorf("resolved condition = %+v", c)
		}
	}
}

// A Secret filled in by another controller (as kube-controller-manager fills a token
// Secret's data) is in sync as long as it holds what was distributed: comparing the
// whole object rewrote it after every fill, for ever.
func TestComputeSecretFilledByOthers(t *testing.T) {
	src := source(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"pull"},"type":"Opaque","stringData":{"a":"x"}}`)
	filled := src.Desired("a").(*corev1.Secret)
	filled.Data["token"] = []byte("minted")
	filled.Labels["added-by"] = "someone"
	if p := Compute(src, rdcontract.TargetSet{Namespaces: []string{"a"}}, []Object{filled}, nil); len(p.InSync) != 1 || len(p.Update) != 0 {
		t.Errorf("filled-in copy: in sync %v, update %d; want in sync and no write", p.InSync, len(p.Update))
	}
	filled.Data["a"] = []byte("changed")
	p := Compute(src, rdcontract.TargetSet{Namespaces: []string{"a"}}, []Object{filled}, nil)
	if len(p.Update) != 1 || string(p.Update[0].(*corev1.Secret).Data["a"]) != "x" || string(p.Update[0].(*corev1.Secret).Data["token"]) != "minted" {
		t.Errorf("a distributed value changed: plan %+v, want it put back beside the other controller's key", p)
	}
	// The source changes: the copy is the new source's data alone (a key the source
	// dropped goes, and so, once, does the other writer's).
	newer := source(t, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"pull"},"type":"Opaque","stringData":{"b":"y"}}`)
	p = Compute(newer, rdcontract.TargetSet{Namespaces: []string{"a"}}, []Object{filled}, nil)
	if got := p.Update[0].(*corev1.Secret).Data; len(p.Update) != 1 || len(got) != 1 || string(got["b"]) != "y" {
		t.Errorf("source changed: data %v, want only the new source's", got)
	}
}

// An immutable source: a copy missing only an annotation is updated in place (kube
// lets metadata change), one with other data is replaced.
func TestComputeImmutableSource(t *testing.T) {
	src := source(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo"},"data":{"lives":"3"},"immutable":true}`)
	noFrom := ours(src, "a", func(cm *corev1.ConfigMap) { delete(cm.Annotations, v1alpha1.ResourceDistributionFromAnnotation) })
	if p := Compute(src, rdcontract.TargetSet{Namespaces: []string{"a"}}, []Object{noFrom}, nil); len(p.Update) != 1 || len(p.Replace) != 0 {
		t.Errorf("metadata-only change: update %d, replace %d; want an update", len(p.Update), len(p.Replace))
	}
	oldData := ours(src, "a", func(cm *corev1.ConfigMap) { cm.Data = map[string]string{"lives": "2"} })
	if p := Compute(src, rdcontract.TargetSet{Namespaces: []string{"a"}}, []Object{oldData}, nil); len(p.Update) != 0 || len(p.Replace) != 1 {
		t.Errorf("data change: update %d, replace %d; want a replacement", len(p.Update), len(p.Replace))
	}
}
