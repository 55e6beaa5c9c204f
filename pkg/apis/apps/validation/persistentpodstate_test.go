package validation

import (
	"bytes"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/examples"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// podState is a valid v1alpha1 PersistentPodState (required hostname, preferred zone),
// changed by mutate, then converted as the server does.
func podState(t *testing.T, mutate func(*v1alpha1.PersistentPodState)) *apps.PersistentPodState {
	t.Helper()
	v := &v1alpha1.PersistentPodState{
		ObjectMeta: metav1.ObjectMeta{Name: "echoserver", Namespace: "default"},
		Spec: v1alpha1.PersistentPodStateSpec{
			TargetReference:            v1alpha1.TargetReference{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet", Name: "echoserver"},
			RequiredPersistentTopology: &v1alpha1.NodeTopologyTerm{NodeTopologyKeys: []string{"kubernetes.io/hostname"}},
			PreferredPersistentTopology: []v1alpha1.PreferredTopologyTerm{{Weight: 100,
				Preference: v1alpha1.NodeTopologyTerm{NodeTopologyKeys: []string{"topology.kubernetes.io/zone"}}}},
		},
	}
	if mutate != nil {
		mutate(v)
	}
	out := &apps.PersistentPodState{}
	toInternal(t, v, out)
	return out
}

func TestValidatePersistentPodState(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*v1alpha1.PersistentPodState)
		want   []wantErr
	}{
		{"valid", nil, nil},
		{"valid: kube's StatefulSet, required only, annotations, WhenDeleted", func(p *v1alpha1.PersistentPodState) {
			p.Spec.TargetReference.APIVersion = "apps/v1"
			p.Spec.PreferredPersistentTopology = nil
			p.Spec.PersistentPodAnnotations = []v1alpha1.PersistentPodAnnotation{{Key: "cni.projectcalico.org/podIP"}}
			p.Spec.PersistentPodStateRetentionPolicy = v1alpha1.PersistentPodStateRetentionPolicyWhenDeleted
		}, nil},
		{"no target name", func(p *v1alpha1.PersistentPodState) { p.Spec.TargetReference.Name = "" },
			[]wantErr{required("spec.targetRef.name")}},
		{"no target apiVersion", func(p *v1alpha1.PersistentPodState) { p.Spec.TargetReference.APIVersion = "" },
			[]wantErr{required("spec.targetRef.apiVersion")}},
		{"target is a CloneSet", func(p *v1alpha1.PersistentPodState) { p.Spec.TargetReference.Kind = "CloneSet" },
			[]wantErr{notSupported("spec.targetRef.kind")}},
		{"target is a Deployment", func(p *v1alpha1.PersistentPodState) {
			p.Spec.TargetReference = v1alpha1.TargetReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "d"}
		}, []wantErr{notSupported("spec.targetRef.kind")}},
		{"neither required nor preferred", func(p *v1alpha1.PersistentPodState) {
			p.Spec.RequiredPersistentTopology, p.Spec.PreferredPersistentTopology = nil, nil
		}, []wantErr{required("spec.requiredPersistentTopology")}},
		{"required without keys", func(p *v1alpha1.PersistentPodState) { p.Spec.RequiredPersistentTopology.NodeTopologyKeys = nil },
			[]wantErr{required("spec.requiredPersistentTopology.nodeTopologyKeys")}},
		{"key that is no label key", func(p *v1alpha1.PersistentPodState) {
			p.Spec.RequiredPersistentTopology.NodeTopologyKeys = []string{"kubernetes.io/hostname", "bad key!"}
		}, []wantErr{invalid("spec.requiredPersistentTopology.nodeTopologyKeys[1]")}},
		{"key twice", func(p *v1alpha1.PersistentPodState) {
			p.Spec.PreferredPersistentTopology[0].Preference.NodeTopologyKeys = []string{"zone", "zone"}
		}, []wantErr{duplicate("spec.preferredPersistentTopology[0].preference.nodeTopologyKeys[1]")}},
		{"weight 0", func(p *v1alpha1.PersistentPodState) { p.Spec.PreferredPersistentTopology[0].Weight = 0 },
			[]wantErr{invalid("spec.preferredPersistentTopology[0].weight", "1-100")}},
		{"weight 101", func(p *v1alpha1.PersistentPodState) { p.Spec.PreferredPersistentTopology[0].Weight = 101 },
			[]wantErr{invalid("spec.preferredPersistentTopology[0].weight", "1-100")}},
		{"preference without keys", func(p *v1alpha1.PersistentPodState) {
			p.Spec.PreferredPersistentTopology[0].Preference.NodeTopologyKeys = []string{}
		}, []wantErr{required("spec.preferredPersistentTopology[0].preference.nodeTopologyKeys")}},
		{"empty annotation key", func(p *v1alpha1.PersistentPodState) {
			p.Spec.PersistentPodAnnotations = []v1alpha1.PersistentPodAnnotation{{Key: ""}}
		}, []wantErr{required("spec.persistentPodAnnotations[0].key")}},
		{"annotation key twice", func(p *v1alpha1.PersistentPodState) {
			p.Spec.PersistentPodAnnotations = []v1alpha1.PersistentPodAnnotation{{Key: "a"}, {Key: "a"}}
		}, []wantErr{duplicate("spec.persistentPodAnnotations[1].key")}},
		{"unknown retention policy", func(p *v1alpha1.PersistentPodState) { p.Spec.PersistentPodStateRetentionPolicy = "Never" },
			[]wantErr{notSupported("spec.persistentPodStateRetentionPolicy")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectErrors(t, ValidatePersistentPodState(podState(t, tc.mutate)), tc.want...)
		})
	}
}

// v1beta1 names the key list keys; it reaches the hub's nodeTopologyKeys and is
// validated the same (the registry renames the paths back, see its errorPaths).
func TestValidatePersistentPodStateV1beta1(t *testing.T) {
	v := &v1beta1.PersistentPodState{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: v1beta1.PersistentPodStateSpec{
			TargetReference:            v1beta1.TargetReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web"},
			RequiredPersistentTopology: &v1beta1.NodeTopologyTerm{Keys: []string{"topology.kubernetes.io/zone", "bad key!"}},
		},
	}
	out := &apps.PersistentPodState{}
	toInternal(t, v, out)
	if got := out.Spec.RequiredPersistentTopology.NodeTopologyKeys; len(got) != 2 || got[0] != "topology.kubernetes.io/zone" {
		t.Fatalf("keys not converted: %v", got)
	}
	expectErrors(t, ValidatePersistentPodState(out), invalid("spec.requiredPersistentTopology.nodeTopologyKeys[1]"))
}

func TestValidatePersistentPodStateUpdate(t *testing.T) {
	old := podState(t, nil)
	old.ResourceVersion = "1"
	changed := podState(t, func(p *v1alpha1.PersistentPodState) { p.Spec.PreferredPersistentTopology[0].Weight = 50 })
	changed.ResourceVersion = "1"
	expectErrors(t, ValidatePersistentPodStateUpdate(changed, old))

	retargeted := podState(t, func(p *v1alpha1.PersistentPodState) { p.Spec.TargetReference.Name = "other" })
	retargeted.ResourceVersion = "1"
	expectErrors(t, ValidatePersistentPodStateUpdate(retargeted, old), invalid("spec.targetRef", "immutable"))

	st := podState(t, nil)
	st.ResourceVersion = "1"
	st.Status.PodStates = map[string]apps.PodState{
		"echoserver-0": {NodeName: "n1", NodeTopologyLabels: map[string]string{"kubernetes.io/hostname": "n1"}},
		"echoserver-1": {NodeName: "n2", NodeTopologyLabels: map[string]string{"kubernetes.io/hostname": "not a value!"}},
	}
	expectErrors(t, ValidatePersistentPodStateStatusUpdate(st, old), invalid("status.podStates[echoserver-1].nodeTopologyLabels"))
}

// The documented example (examples/persistentpodstate.yaml) is valid as written.
func TestDocumentedPersistentPodState(t *testing.T) {
	data, err := examples.Read("persistentpodstate.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := bytes.Cut(data, []byte("\n---\n"))
	v := &v1alpha1.PersistentPodState{}
	if err := yaml.UnmarshalStrict(doc, v); err != nil {
		t.Fatal(err)
	}
	v.Namespace = requestNamespace
	pps := &apps.PersistentPodState{}
	toInternal(t, v, pps)
	expectErrors(t, ValidatePersistentPodState(pps))
}
