package podbudget

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
)

func maxU(v intstr.IntOrString) *policyv1beta1.PodUnavailableBudgetSpec {
	return &policyv1beta1.PodUnavailableBudgetSpec{MaxUnavailable: &v}
}

func minA(v intstr.IntOrString) *policyv1beta1.PodUnavailableBudgetSpec {
	return &policyv1beta1.PodUnavailableBudgetSpec{MinAvailable: &v}
}

func TestDesiredAvailable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  *policyv1beta1.PodUnavailableBudgetSpec
		total int32
		want  int32
	}{
		{"maxUnavailable 1 of 5", maxU(intstr.FromInt32(1)), 5, 4},
		{"maxUnavailable above total", maxU(intstr.FromInt32(7)), 5, 0},
		{"maxUnavailable 0", maxU(intstr.FromInt32(0)), 5, 5},
		{"maxUnavailable 25% of 5 rounds up to 2", maxU(intstr.FromString("25%")), 5, 3},
		{"maxUnavailable 100%", maxU(intstr.FromString("100%")), 5, 0},
		{"minAvailable 3 of 5", minA(intstr.FromInt32(3)), 5, 3},
		{"minAvailable 50% of 5 rounds up to 3", minA(intstr.FromString("50%")), 5, 3},
		{"minAvailable 60% of 10", minA(intstr.FromString("60%")), 10, 6},
		{"nothing to protect", maxU(intstr.FromString("10%")), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DesiredAvailable(tc.spec, tc.total)
			if err != nil || got != tc.want {
				t.Errorf("DesiredAvailable = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
	if _, err := DesiredAvailable(maxU(intstr.FromString("x%")), 5); err == nil {
		t.Errorf("a malformed percent was accepted")
	}
	if _, err := DesiredAvailable(&policyv1beta1.PodUnavailableBudgetSpec{}, 5); err == nil {
		t.Errorf("a budget without maxUnavailable or minAvailable was accepted")
	}
}

func TestUnavailableAllowed(t *testing.T) {
	for _, tc := range []struct{ current, desired, want int32 }{
		{5, 4, 1}, {4, 4, 0}, {3, 4, 0}, {5, 0, 5},
	} {
		if got := UnavailableAllowed(tc.current, tc.desired); got != tc.want {
			t.Errorf("UnavailableAllowed(%d, %d) = %d, want %d", tc.current, tc.desired, got, tc.want)
		}
	}
}

// pods is a small DSL: "a" available, "a-" unavailable, "a~" terminating.
func pods(spec string) []Pod {
	var out []Pod
	for _, s := range strings.Fields(spec) {
		switch {
		case strings.HasSuffix(s, "~"):
			out = append(out, Pod{Name: strings.TrimSuffix(s, "~"), Terminating: true})
		case strings.HasSuffix(s, "-"):
			out = append(out, Pod{Name: strings.TrimSuffix(s, "-")})
		default:
			out = append(out, Pod{Name: s, Available: true})
		}
	}
	return out
}

func TestCompute(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) metav1.Time { return metav1.NewTime(now.Add(-d)) }
	one := maxU(intstr.FromInt32(1))
	for _, tc := range []struct {
		name                   string
		total                  int32
		pods                   string
		disrupted, unavailable map[string]metav1.Time
		wantCurrent, wantAllow int32
		wantDisrupted          []string
		wantUnavailable        []string
		wantRecheck            time.Duration
	}{
		{name: "all available", total: 5, pods: "a b c d e", wantCurrent: 5, wantAllow: 1},
		{name: "one unready", total: 5, pods: "a b c d e-", wantCurrent: 4, wantAllow: 0},
		{name: "missing replica counts against the target's replicas", total: 5, pods: "a b c d", wantCurrent: 4},
		{name: "selector: total is the live pods", total: -1, pods: "a b c d~", wantCurrent: 3, wantAllow: 1},
		{name: "just admitted delete: pod still looks available", total: 5, pods: "a b c d e",
			disrupted: map[string]metav1.Time{"a": ago(time.Second)}, wantCurrent: 4,
			wantDisrupted: []string{"a"}, wantRecheck: DeletionTimeout - time.Second},
		{name: "deleted pod seen terminating is forgotten after settling", total: 5, pods: "a~ b c d e",
			disrupted: map[string]metav1.Time{"a": ago(10 * time.Second)}, wantCurrent: 4},
		{name: "deleted pod gone but not settled is kept", total: 5, pods: "b c d e",
			disrupted: map[string]metav1.Time{"a": ago(time.Second)}, wantCurrent: 4,
			wantDisrupted: []string{"a"}, wantRecheck: Settle - time.Second},
		{name: "delete that never happened expires", total: 5, pods: "a b c d e",
			disrupted: map[string]metav1.Time{"a": ago(3 * time.Minute)}, wantCurrent: 5, wantAllow: 1},
		{name: "update admitted, pod cache not caught up", total: 5, pods: "a b c d e",
			unavailable: map[string]metav1.Time{"a": ago(time.Second)}, wantCurrent: 4,
			wantUnavailable: []string{"a"}, wantRecheck: Settle - time.Second},
		{name: "updating pod stays recorded", total: 5, pods: "a- b c d e",
			unavailable: map[string]metav1.Time{"a": ago(time.Minute)}, wantCurrent: 4,
			wantUnavailable: []string{"a"}},
		{name: "updated pod available again is forgotten", total: 5, pods: "a b c d e",
			unavailable: map[string]metav1.Time{"a": ago(time.Minute)}, wantCurrent: 5, wantAllow: 1},
		{name: "updated pod gone is forgotten", total: 5, pods: "b c d e",
			unavailable: map[string]metav1.Time{"a": ago(time.Minute)}, wantCurrent: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compute(one, tc.total, pods(tc.pods), tc.disrupted, tc.unavailable, now)
			if err != nil {
				t.Fatal(err)
			}
			if c.Current != tc.wantCurrent || c.Allowed != tc.wantAllow {
				t.Errorf("current %d allowed %d, want %d %d", c.Current, c.Allowed, tc.wantCurrent, tc.wantAllow)
			}
			if got := keys(c.Disrupted); got != strings.Join(tc.wantDisrupted, " ") {
				t.Errorf("disrupted %q, want %v", got, tc.wantDisrupted)
			}
			if got := keys(c.Unavailable); got != strings.Join(tc.wantUnavailable, " ") {
				t.Errorf("unavailable %q, want %v", got, tc.wantUnavailable)
			}
			if c.RecheckAfter != tc.wantRecheck {
				t.Errorf("recheck after %v, want %v", c.RecheckAfter, tc.wantRecheck)
			}
		})
	}
}

func keys(m map[string]metav1.Time) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return strings.Join(out, " ")
}

func TestDecide(t *testing.T) {
	now := metav1.Now()
	budget := func(allowed int32) *policyv1beta1.PodUnavailableBudget {
		return &policyv1beta1.PodUnavailableBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", Generation: 1},
			Status:     policyv1beta1.PodUnavailableBudgetStatus{ObservedGeneration: 1, UnavailableAllowed: allowed, CurrentAvailable: 5, DesiredAvailable: 4, TotalReplicas: 5},
		}
	}
	// one slot: the first delete spends it, the second is refused
	pub := budget(1)
	if d, _ := Decide(pub, "a", Delete, now); d != Spend || pub.Status.UnavailableAllowed != 0 || pub.Status.DisruptedPods["a"] != now {
		t.Fatalf("first delete: %v %+v", d, pub.Status)
	}
	if d, msg := Decide(pub, "b", Delete, now); d != Refuse || !strings.Contains(msg, "pub ns/web") {
		t.Errorf("second delete: %v %q", d, msg)
	}
	// the recorded pod may be disrupted again for free
	if d, _ := Decide(pub, "a", Evict, now); d != Allow {
		t.Errorf("evicting a deleted pod: %v", d)
	}
	// an update is recorded as unavailable
	pub = budget(2)
	if d, _ := Decide(pub, "a", Update, now); d != Spend || pub.Status.UnavailablePods["a"] != now || pub.Status.UnavailableAllowed != 1 {
		t.Errorf("update: %v %+v", d, pub.Status)
	}
	if d, _ := Decide(pub, "a", Update, now); d != Allow || pub.Status.UnavailableAllowed != 1 {
		t.Errorf("second batch of the same update: %v %+v", d, pub.Status)
	}
	// a budget that counts no replicas (target deleted) keeps nothing
	pub = budget(0)
	pub.Status.TotalReplicas, pub.Status.CurrentAvailable, pub.Status.DesiredAvailable = 0, 0, 0
	if d, _ := Decide(pub, "a", Delete, now); d != Allow {
		t.Errorf("budget of a deleted target: %v", d)
	}
	// a budget its controller has not seen yet refuses
	pub = budget(3)
	pub.Generation = 2
	if d, msg := Decide(pub, "a", Delete, now); d != Refuse || !strings.Contains(msg, "not been observed") {
		t.Errorf("unobserved budget: %v %q", d, msg)
	}
}

func TestProtects(t *testing.T) {
	for _, tc := range []struct {
		annotation string
		op         Operation
		want       bool
	}{
		{"", Update, true},
		{"EVICT", Delete, false},
		{"EVICT", Evict, true},
		{"DELETE, UPDATE", Update, true},
	} {
		pub := &policyv1beta1.PodUnavailableBudget{}
		if tc.annotation != "" {
			pub.Annotations = map[string]string{policyv1beta1.PubProtectOperationAnnotation: tc.annotation}
		}
		if got := Protects(pub, tc.op); got != tc.want {
			t.Errorf("Protects(%q, %s) = %v", tc.annotation, tc.op, got)
		}
	}
}

// spec.protectOperations wins over the annotation OpenKruise deprecated.
func TestProtectsField(t *testing.T) {
	pub := &policyv1beta1.PodUnavailableBudget{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{policyv1beta1.PubProtectOperationAnnotation: "DELETE"}},
		Spec:       policyv1beta1.PodUnavailableBudgetSpec{ProtectOperations: []policyv1beta1.PubOperation{"EVICT"}},
	}
	if Protects(pub, Delete) || !Protects(pub, Evict) {
		t.Errorf("protectOperations [EVICT]: delete %v evict %v", Protects(pub, Delete), Protects(pub, Evict))
	}
	n := int32(7)
	pub.Spec.ProtectTotalReplicas = &n
	if got, ok := TotalOverride(pub); !ok || got != 7 {
		t.Errorf("TotalOverride = %d, %v", got, ok)
	}
	pub.Spec.IgnoredPodSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"canary": "true"}}
	if !Ignored(pub, map[string]string{"canary": "true"}) || Ignored(pub, map[string]string{"app": "web"}) {
		t.Errorf("ignoredPodSelector canary=true")
	}
}
