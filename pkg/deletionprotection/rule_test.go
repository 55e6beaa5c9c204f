package deletionprotection

import (
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func TestRefusal(t *testing.T) {
	label := func(v string) map[string]string { return map[string]string{pub.DeletionProtectionKey: v} }
	none := func() (Children, error) { return Children{}, nil }
	boom := errors.New("list failed")
	cases := []struct {
		name     string
		labels   map[string]string
		children ChildrenFunc
		want     string // fragment of the refusal; "" = allowed
		wantErr  error
		counted  bool // whether the children were asked for
	}{
		{name: "no label", labels: nil, want: ""},
		{name: "other value", labels: label("Never"), want: ""},
		{name: "Always with no children", labels: label("Always"), children: none,
			want: "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always: the label forbids deleting it; remove the label first"},
		{name: "Cascading, workload with replicas", labels: label("Cascading"),
			children: func() (Children, error) { return Replicas("spec.replicas", 3), nil }, counted: true,
			want: "forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading: the label forbids deleting it while spec.replicas is 3; bring it to 0 first"},
		{name: "Cascading, workload at zero", labels: label("Cascading"),
			children: func() (Children, error) { return Replicas("spec.replicas", 0), nil }, counted: true, want: ""},
		{name: "Cascading, namespace with pods", labels: label("Cascading"),
			children: func() (Children, error) { return Pods(1, true), nil }, counted: true,
			want: "while it has at least 1 active pod(s); delete them first"},
		{name: "Cascading, empty namespace", labels: label("Cascading"),
			children: func() (Children, error) { return Pods(0, false), nil }, counted: true, want: ""},
		{name: "Cascading, CRD with objects", labels: label("Cascading"),
			children: func() (Children, error) { return Objects("widgets.example.com", 1), nil }, counted: true,
			want: "while widgets.example.com objects exist; delete them first"},
		{name: "Cascading, CRD without objects", labels: label("Cascading"),
			children: func() (Children, error) { return Objects("widgets.example.com", 0), nil }, counted: true, want: ""},
		{name: "Cascading, children unknown", labels: label("Cascading"),
			children: func() (Children, error) { return Children{}, boom }, counted: true, wantErr: boom},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			asked := false
			children := func() (Children, error) {
				asked = true
				if tc.children == nil {
					t.Fatal("children asked for")
				}
				return tc.children()
			}
			got, err := Refusal(tc.labels, children)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if asked != tc.counted {
				t.Errorf("children asked for: %v, want %v", asked, tc.counted)
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("refusal %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCountActivePods(t *testing.T) {
	t0 := metav1.Unix(1000, 0)
	before, after := metav1.Unix(900, 0), metav1.Unix(1100, 0)
	pod := func(phase corev1.PodPhase, deleted *metav1.Time) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: deleted}, Status: corev1.PodStatus{Phase: phase}}
	}
	pods := []*corev1.Pod{
		pod(corev1.PodRunning, nil), pod(corev1.PodPending, nil), pod("", nil),
		pod(corev1.PodSucceeded, nil), pod(corev1.PodFailed, nil),
		pod(corev1.PodRunning, &before), pod(corev1.PodRunning, &t0), pod(corev1.PodRunning, &after),
	}
	cases := []struct {
		name  string
		since *metav1.Time
		want  int64
	}{
		// deciding now: pods being deleted are on their way out already
		{"now", nil, 3},
		// a deletion that began at t0: pods deleted from t0 on were children then
		{"since t0", &t0, 5},
	}
	for _, tc := range cases {
		if got := CountActivePods(pods, tc.since); got != tc.want {
			t.Errorf("%s: CountActivePods = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestProtected(t *testing.T) {
	for v, want := range map[string]bool{"Always": true, "Cascading": true, "": false, "always": false} {
		if got := Protected(map[string]string{pub.DeletionProtectionKey: v}); got != want {
			t.Errorf("Protected(%q) = %v, want %v", v, got, want)
		}
	}
}
