package validation

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// upstreamRule is one case of an upstream_rules_<kind>_test.go table: a rule of
// OpenKruise's validating webhooks and an object it refuses, which we refuse too.
//
// rule names the rule as "<file under pkg/webhook/>:<function>: <what it refuses>", so
// the rules can be counted (grep -c 'rule:' upstream_rules_*_test.go). mut turns the
// kind's valid object into the refused one. With update set, the case is an update:
// the old object is the valid one with old applied (if any), the new one that with mut
// applied. want are the errors we answer with, at the served version's paths.
type upstreamRule[T runtime.Object] struct {
	rule   string
	update bool
	old    func(T)
	mut    func(T)
	want   []wantErr
}

// upstreamKind is what runUpstreamRules needs of a kind.
type upstreamKind[T runtime.Object] struct {
	kind           string
	valid          func() T
	validate       func(T) field.ErrorList
	validateUpdate func(T, T) field.ErrorList
}

// runUpstreamRules runs each case once per served version of the kind: the objects go
// through that version and back (as a request in that version does) before validation,
// so a rule holds whichever version the user sends.
func runUpstreamRules[T runtime.Object](t *testing.T, k upstreamKind[T], cases []upstreamRule[T]) {
	t.Helper()
	versions := servedVersions(t, k.kind)
	t.Run("valid", func(t *testing.T) {
		obj := k.valid()
		expectErrors(t, k.validate(obj))
		any(obj).(metav1.Object).SetResourceVersion("1")
		expectErrors(t, k.validateUpdate(obj.DeepCopyObject().(T), obj))
	})
	for _, c := range cases {
		if !strings.Contains(c.rule, ".go:") {
			t.Fatalf("rule %q does not name its upstream file and function", c.rule)
		}
		for _, gv := range versions {
			t.Run(gv.Version+"/"+c.rule, func(t *testing.T) {
				obj := k.valid()
				if !c.update {
					c.mut(obj)
					expectErrors(t, k.validate(through(t, gv, k.kind, obj)), c.want...)
					return
				}
				any(obj).(metav1.Object).SetResourceVersion("1")
				if c.old != nil {
					c.old(obj)
				}
				old := through(t, gv, k.kind, obj)
				obj = through(t, gv, k.kind, obj)
				c.mut(obj)
				expectErrors(t, k.validateUpdate(through(t, gv, k.kind, obj), old), c.want...)
			})
		}
	}
}

// servedVersions are the versions of apps.kruise.io that serve kind.
func servedVersions(t *testing.T, kind string) []schema.GroupVersion {
	t.Helper()
	var out []schema.GroupVersion
	for _, gv := range scheme.PrioritizedVersionsForGroup(apps.GroupName) {
		if scheme.Recognizes(gv.WithKind(kind)) {
			out = append(out, gv)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no served version of %s", kind)
	}
	return out
}

// through converts an internal object to version gv and back into a new internal object.
func through[T runtime.Object](t *testing.T, gv schema.GroupVersion, kind string, obj T) T {
	t.Helper()
	versioned, err := scheme.New(gv.WithKind(kind))
	if err != nil {
		t.Fatal(err)
	}
	if err := scheme.Convert(obj, versioned, nil); err != nil {
		t.Fatalf("to %s: %v", gv, err)
	}
	back, err := scheme.New(schema.GroupVersion{Group: gv.Group, Version: runtime.APIVersionInternal}.WithKind(kind))
	if err != nil {
		t.Fatal(err)
	}
	if err := scheme.Convert(versioned, back, nil); err != nil {
		t.Fatalf("from %s: %v", gv, err)
	}
	// Conversions may share memory with their input: copy, so that mutating the
	// result leaves obj alone.
	return back.DeepCopyObject().(T)
}
