package validation

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

const gameDemo = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo"},"data":{"game.properties":"lives=3"}}`

func distribution(resource string, mutate ...func(*apps.ResourceDistributionTargets)) *apps.ResourceDistribution {
	rd := &apps.ResourceDistribution{
		ObjectMeta: metav1.ObjectMeta{Name: "sample"},
		Spec: apps.ResourceDistributionSpec{
			Resource: runtime.RawExtension{Raw: []byte(resource)},
			Targets: apps.ResourceDistributionTargets{
				NamespaceLabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"group": "test"}},
			},
		},
	}
	for _, m := range mutate {
		m(&rd.Spec.Targets)
	}
	return rd
}

func nsList(names ...string) apps.ResourceDistributionTargetNamespaces {
	var l apps.ResourceDistributionTargetNamespaces
	for _, n := range names {
		l.List = append(l.List, apps.ResourceDistributionNamespace{Name: n})
	}
	return l
}

func TestValidateResourceDistribution(t *testing.T) {
	tests := []struct {
		name string
		rd   *apps.ResourceDistribution
		// want are the fields the errors must name; none means valid.
		want []string
	}{
		{"the documented ConfigMap", distribution(gameDemo), nil},
		{"a Secret with stringData", distribution(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"pull"},"type":"Opaque","stringData":{"a":"b"}}`), nil},
		{"a namespace in the resource is accepted (ignored, with a warning)",
			distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"}}`), nil},
		{"a Deployment", distribution(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"}}`),
			[]string{"spec.resource.apiVersion", "spec.resource.kind"}},
		{"a ConfigMap of another group version", distribution(`{"apiVersion":"v2","kind":"ConfigMap","metadata":{"name":"c"}}`),
			[]string{"spec.resource.apiVersion"}},
		{"no resource", distribution(``), []string{"spec.resource"}},
		{"no name", distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}`), []string{"spec.resource.metadata.name"}},
		{"an invalid name", distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Game_Demo"}}`),
			[]string{"spec.resource.metadata.name"}},
		{"an unknown field", distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"datta":{"a":"b"}}`),
			[]string{"spec.resource"}},
		{"data that is not strings", distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":1}}`),
			[]string{"spec.resource"}},
		{"an invalid data key", distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a/b":"x"}}`),
			[]string{"spec.resource.data[a/b]"}},
		{"a key in data and binaryData", distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"x"},"binaryData":{"a":"eA=="}}`),
			[]string{"spec.resource.binaryData[a]"}},
		{"an invalid included namespace", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.IncludedNamespaces = nsList("ok", "Not_OK")
		}), []string{"spec.targets.includedNamespaces.list[1].name"}},
		{"an empty excluded namespace", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.ExcludedNamespaces = nsList("")
		}), []string{"spec.targets.excludedNamespaces.list[0].name"}},
		{"a namespace listed twice", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.IncludedNamespaces = nsList("a", "a")
		}), []string{"spec.targets.includedNamespaces.list[1].name"}},
		{"included and excluded", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.IncludedNamespaces = nsList("a", "b")
			t.ExcludedNamespaces = nsList("b")
		}), []string{"spec.targets.excludedNamespaces.list[0].name"}},
		{"allNamespaces with includedNamespaces (a union, as in OpenKruise)", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.AllNamespaces = true
			t.IncludedNamespaces = nsList("a")
		}), nil},
		{"kruise-system included by name", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.IncludedNamespaces = nsList("a", "kruise-system")
		}), []string{"spec.targets.includedNamespaces.list[1].name"}},
		{"kruise-system excluded by name (nothing to refuse)", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.ExcludedNamespaces = nsList("kruise-system")
		}), nil},
		{"a ServiceAccount token Secret (kube-controller-manager writes it)",
			distribution(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"t"},"type":"kubernetes.io/service-account-token"}`),
			[]string{"spec.resource.type"}},
		{"the root CA ConfigMap (kube-controller-manager writes it)",
			distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kube-root-ca.crt"}}`),
			[]string{"spec.resource.metadata.name"}},
		{"an invalid selector operator", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.NamespaceLabelSelector = metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "group", Operator: "Like"}}}
		}), []string{"spec.targets.namespaceLabelSelector.matchExpressions[0].operator"}},
		{"an invalid selector label", distribution(gameDemo, func(t *apps.ResourceDistributionTargets) {
			t.NamespaceLabelSelector = metav1.LabelSelector{MatchLabels: map[string]string{"group": "not valid"}}
		}), []string{"spec.targets.namespaceLabelSelector.matchLabels"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkFields(t, ValidateResourceDistribution(tt.rd).ToAggregate(), tt.want)
		})
	}
}

func TestValidateResourceDistributionUpdate(t *testing.T) {
	old := distribution(gameDemo)
	old.ResourceVersion = "1"
	tests := []struct {
		name     string
		resource string
		want     []string
	}{
		{"new data", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"game-demo"},"data":{"lives":"4"}}`, nil},
		{"renamed", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"other"}}`, []string{"spec.resource.metadata.name"}},
		{"another kind", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"game-demo"}}`, []string{"spec.resource.kind"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rd := distribution(tt.resource)
			rd.ResourceVersion = "1"
			checkFields(t, ValidateResourceDistributionUpdate(rd, old).ToAggregate(), tt.want)
		})
	}
}

func TestResourceDistributionWarnings(t *testing.T) {
	ns := distribution(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"}}`)
	if w := ResourceDistributionWarnings(ns); len(w) != 1 || !strings.Contains(w[0], "namespace") {
		t.Errorf("warnings = %q, want one about the ignored namespace", w)
	}
	none := distribution(gameDemo, func(t *apps.ResourceDistributionTargets) { t.NamespaceLabelSelector = metav1.LabelSelector{} })
	if w := ResourceDistributionWarnings(none); len(w) != 1 || !strings.Contains(w[0], "no namespace") {
		t.Errorf("warnings = %q, want one about selecting no namespace", w)
	}
	system := distribution(gameDemo, func(t *apps.ResourceDistributionTargets) { t.IncludedNamespaces = nsList("kube-system") })
	if w := ResourceDistributionWarnings(system); len(w) != 1 || !strings.Contains(w[0], "kube-system never gets a copy") {
		t.Errorf("warnings = %q, want one about kube-system", w)
	}
	if w := ResourceDistributionWarnings(distribution(gameDemo)); len(w) != 0 {
		t.Errorf("warnings = %q, want none", w)
	}
}

// checkFields fails unless err names exactly the fields in want (each at least once).
func checkFields(t *testing.T, err error, want []string) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("unexpected errors: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("no error, want errors at %v", want)
	}
	for _, f := range want {
		if !strings.Contains(err.Error(), f+":") {
			t.Errorf("errors %q do not name %s", err, f)
		}
	}
}
