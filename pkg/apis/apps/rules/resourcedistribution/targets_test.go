package resourcedistribution

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// ns parses "name" or "name:k=v,k=v" or "name!" (terminating).
func ns(spec string) *corev1.Namespace {
	n := &corev1.Namespace{}
	if strings.HasSuffix(spec, "!") {
		spec = strings.TrimSuffix(spec, "!")
		n.Status.Phase = corev1.NamespaceTerminating
	}
	name, lbls, _ := strings.Cut(spec, ":")
	n.Name = name
	if lbls != "" {
		n.Labels = map[string]string{}
		for _, kv := range strings.Split(lbls, ",") {
			k, v, _ := strings.Cut(kv, "=")
			n.Labels[k] = v
		}
	}
	return n
}

func list(names ...string) v1alpha1.ResourceDistributionTargetNamespaces {
	var l v1alpha1.ResourceDistributionTargetNamespaces
	for _, n := range names {
		l.List = append(l.List, v1alpha1.ResourceDistributionNamespace{Name: n})
	}
	return l
}

func groupTest() metav1.LabelSelector {
	return metav1.LabelSelector{MatchLabels: map[string]string{"group": "test"}}
}

func TestTargets(t *testing.T) {
	cluster := []string{"default", "kube-system", "kube-public", "kruise-system:group=test", "a:group=test", "b:group=test", "c:group=prod", "d", "gone:group=test!"}
	tests := []struct {
		name        string
		targets     v1alpha1.ResourceDistributionTargets
		want        []string
		wantMissing []string
	}{
		{name: "nothing selects nothing", want: nil},
		{name: "label selector (never kruise-system, though it matches)", targets: v1alpha1.ResourceDistributionTargets{NamespaceLabelSelector: groupTest()},
			want: []string{"a", "b"}},
		{name: "all namespaces but the system ones and kruise-system", targets: v1alpha1.ResourceDistributionTargets{AllNamespaces: true},
			want: []string{"a", "b", "c", "d", "default"}},
		{name: "all minus excluded", targets: v1alpha1.ResourceDistributionTargets{AllNamespaces: true, ExcludedNamespaces: list("default", "c")},
			want: []string{"a", "b", "d"}},
		{name: "union of included and selector",
			targets: v1alpha1.ResourceDistributionTargets{IncludedNamespaces: list("d"), NamespaceLabelSelector: groupTest()},
			want:    []string{"a", "b", "d"}},
		{name: "excluded wins over the selector",
			targets: v1alpha1.ResourceDistributionTargets{ExcludedNamespaces: list("a"), NamespaceLabelSelector: groupTest()},
			want:    []string{"b"}},
		{name: "an included namespace that does not exist is missing",
			targets: v1alpha1.ResourceDistributionTargets{IncludedNamespaces: list("d", "nope")},
			want:    []string{"d"}, wantMissing: []string{"nope"}},
		{name: "an included terminating namespace is missing; a selected one is no target",
			targets: v1alpha1.ResourceDistributionTargets{IncludedNamespaces: list("gone")},
			want:    nil, wantMissing: []string{"gone"}},
		{name: "kube-system is never a target, even included",
			targets: v1alpha1.ResourceDistributionTargets{IncludedNamespaces: list("kube-system", "kube-public")},
			want:    nil},
		{name: "kruise-system is never a target (validation refuses to name it)",
			targets: v1alpha1.ResourceDistributionTargets{IncludedNamespaces: list("kruise-system", "d")},
			want:    []string{"d"}},
		{name: "a selector expression",
			targets: v1alpha1.ResourceDistributionTargets{NamespaceLabelSelector: metav1.LabelSelector{
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "group", Operator: metav1.LabelSelectorOpExists}}}},
			want: []string{"a", "b", "c"}},
	}
	var namespaces []*corev1.Namespace
	for _, s := range cluster {
		namespaces = append(namespaces, ns(s))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Targets(&tt.targets, namespaces)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Namespaces, tt.want) || !reflect.DeepEqual(got.Missing, tt.wantMissing) {
				t.Fatalf("targets = %v missing %v, want %v missing %v", got.Namespaces, got.Missing, tt.want, tt.wantMissing)
			}
			if got.Desired() != len(tt.want)+len(tt.wantMissing) {
				t.Fatalf("desired = %d", got.Desired())
			}
			// Concerns agrees with Targets for every existing active namespace.
			for _, n := range namespaces {
				in := slices.Contains(got.Namespaces, n.Name)
				if in && !Concerns(&tt.targets, n) {
					t.Errorf("%s is a target but Concerns says no", n.Name)
				}
			}
		})
	}
	bad := v1alpha1.ResourceDistributionTargets{NamespaceLabelSelector: metav1.LabelSelector{
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "group", Operator: "Like"}}}}
	if _, err := Targets(&bad, namespaces); err == nil {
		t.Error("an invalid selector gave no error")
	}
}
