package validation

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The upstream_rules_<kind>_test.go tables hold, for the workload kinds, one case per
// rule of OpenKruise's validating webhooks (openkruise/kruise pkg/webhook/<kind>/
// validating, and the helpers they call): the object the rule refuses, and how
// kruise-apiserver refuses it (type and field path in the served version's names).
// The rules we deliberately accept are listed in README.md ("Validation compared with
// OpenKruise's webhooks"). Rules that need the server (deletion protection) are in
// pkg/admission/deletionprotection's upstream table.

// upstreamWorkloadRule is one case: upstream names the rule as "<file under
// openkruise/kruise>:<function>: <what it refuses>"; a case with old set validates an
// update from old (the base object changed by old) to the base changed by old and
// then mutate.
type upstreamWorkloadRule[T any] struct {
	upstream string
	old      func(T)
	mutate   func(T)
	want     []wantErr
}

// workloadRuleKind is how the table of one kind builds and validates its objects.
type workloadRuleKind[T any] struct {
	fresh    func(*testing.T) T
	deepCopy func(T) T
	create   func(T) field.ErrorList
	update   func(obj, old T) field.ErrorList
}

// runUpstreamWorkloadRules runs a kind's table; each case must name its upstream rule
// and expect at least one error (a table of refusals).
func runUpstreamWorkloadRules[T any](t *testing.T, k workloadRuleKind[T], cases []upstreamWorkloadRule[T]) {
	t.Helper()
	for _, tc := range cases {
		if !strings.Contains(tc.upstream, ".go:") || len(tc.want) == 0 {
			t.Fatalf("case %q: must name its upstream file and function and expect a refusal", tc.upstream)
		}
		t.Run(tc.upstream, func(t *testing.T) {
			if tc.old == nil {
				obj := k.fresh(t)
				tc.mutate(obj)
				expectErrors(t, k.create(obj), tc.want...)
				return
			}
			old := k.fresh(t)
			tc.old(old)
			obj := k.deepCopy(old)
			tc.mutate(obj)
			expectErrors(t, k.update(obj, old), tc.want...)
		})
	}
}

// storedAsIs is an old func for update cases whose stored object is the base one.
func storedAsIs[T any](T) {}
