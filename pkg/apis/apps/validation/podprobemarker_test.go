package validation

import (
	"bytes"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/examples"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// marker is a valid v1alpha1 PodProbeMarker (an exec probe with a marker policy),
// changed by mutate, then defaulted and converted as the server does.
func marker(t *testing.T, mutate func(*v1alpha1.PodProbeMarker)) *apps.PodProbeMarker {
	t.Helper()
	v := &v1alpha1.PodProbeMarker{
		ObjectMeta: metav1.ObjectMeta{Name: "game-server-probe", Namespace: "default"},
		Spec: v1alpha1.PodProbeMarkerSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "game-server"}},
			Probes: []v1alpha1.PodContainerProbe{{
				Name: "Idle", ContainerName: "game-server",
				Probe: v1alpha1.ContainerProbeSpec{Probe: corev1.Probe{ProbeHandler: corev1.ProbeHandler{
					Exec: &corev1.ExecAction{Command: []string{"/home/game/idle.sh"}}}}},
				MarkerPolicy: []v1alpha1.ProbeMarkerPolicy{
					{State: v1alpha1.ProbeSucceeded, Labels: map[string]string{"gameserver-idle": "true"}},
					{State: v1alpha1.ProbeFailed, Labels: map[string]string{"gameserver-idle": "false"}},
				},
				PodConditionType: "game.io/idle",
			}},
		},
	}
	if mutate != nil {
		mutate(v)
	}
	v1alpha1.SetObjectDefaults_PodProbeMarker(v)
	out := &apps.PodProbeMarker{}
	toInternal(t, v, out)
	return out
}

func TestValidatePodProbeMarker(t *testing.T) {
	probe := func(m *v1alpha1.PodProbeMarker) *v1alpha1.PodContainerProbe { return &m.Spec.Probes[0] }
	tests := []struct {
		name   string
		mutate func(*v1alpha1.PodProbeMarker)
		want   []wantErr
	}{
		{"valid exec probe", nil, nil},
		{"valid tcpSocket probe with a condition only", func(m *v1alpha1.PodProbeMarker) {
			probe(m).Probe.Exec = nil
			probe(m).Probe.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}
			probe(m).MarkerPolicy = nil
		}, nil},
		{"valid httpGet probe by port name", func(m *v1alpha1.PodProbeMarker) {
			probe(m).Probe.Exec = nil
			probe(m).Probe.HTTPGet = &corev1.HTTPGetAction{Port: intstr.FromString("http"), Path: "/idle"}
		}, nil},
		{"no selector", func(m *v1alpha1.PodProbeMarker) { m.Spec.Selector = nil }, []wantErr{required("spec.selector")}},
		{"empty selector", func(m *v1alpha1.PodProbeMarker) { m.Spec.Selector = &metav1.LabelSelector{} },
			[]wantErr{invalid("spec.selector", "empty selector")}},
		{"no probes", func(m *v1alpha1.PodProbeMarker) { m.Spec.Probes = nil }, []wantErr{required("spec.probes")}},
		{"probe without name", func(m *v1alpha1.PodProbeMarker) { probe(m).Name = "" }, []wantErr{required("spec.probes[0].name")}},
		{"probe name with the NodePodProbe separator", func(m *v1alpha1.PodProbeMarker) { probe(m).Name = "a#b" },
			[]wantErr{invalid("spec.probes[0].name")}},
		{"duplicate probe names", func(m *v1alpha1.PodProbeMarker) {
			second := *probe(m).DeepCopy()
			second.PodConditionType = "game.io/other"
			m.Spec.Probes = append(m.Spec.Probes, second)
		}, []wantErr{duplicate("spec.probes[1].name")}},
		{"no container", func(m *v1alpha1.PodProbeMarker) { probe(m).ContainerName = "" },
			[]wantErr{required("spec.probes[0].containerName")}},
		{"no handler", func(m *v1alpha1.PodProbeMarker) { probe(m).Probe.Exec = nil },
			[]wantErr{required("spec.probes[0].probe")}},
		{"two handlers", func(m *v1alpha1.PodProbeMarker) {
			probe(m).Probe.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}
		}, []wantErr{forbidden("spec.probes[0].probe", "more than one")}},
		{"grpc probe", func(m *v1alpha1.PodProbeMarker) {
			probe(m).Probe.Exec = nil
			probe(m).Probe.GRPC = &corev1.GRPCAction{Port: 9000}
		}, []wantErr{forbidden("spec.probes[0].probe.grpc")}},
		{"empty exec command", func(m *v1alpha1.PodProbeMarker) { probe(m).Probe.Exec.Command = nil },
			[]wantErr{required("spec.probes[0].probe.exec.command")}},
		{"tcp port out of range", func(m *v1alpha1.PodProbeMarker) {
			probe(m).Probe.Exec = nil
			probe(m).Probe.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(70000)}
		}, []wantErr{invalid("spec.probes[0].probe.tcpSocket.port")}},
		{"negative period", func(m *v1alpha1.PodProbeMarker) { probe(m).Probe.PeriodSeconds = -1 },
			[]wantErr{invalid("spec.probes[0].probe.periodSeconds")}},
		{"negative initial delay", func(m *v1alpha1.PodProbeMarker) { probe(m).Probe.InitialDelaySeconds = -5 },
			[]wantErr{invalid("spec.probes[0].probe.initialDelaySeconds")}},
		{"termination grace period", func(m *v1alpha1.PodProbeMarker) { probe(m).Probe.TerminationGracePeriodSeconds = ptr.To[int64](5) },
			[]wantErr{forbidden("spec.probes[0].probe.terminationGracePeriodSeconds")}},
		{"marker state Unknown", func(m *v1alpha1.PodProbeMarker) { probe(m).MarkerPolicy[1].State = v1alpha1.ProbeUnknown },
			[]wantErr{notSupported("spec.probes[0].markerPolicy[1].state")}},
		{"marker state twice", func(m *v1alpha1.PodProbeMarker) { probe(m).MarkerPolicy[1].State = v1alpha1.ProbeSucceeded },
			[]wantErr{duplicate("spec.probes[0].markerPolicy[1].state")}},
		{"invalid marker label", func(m *v1alpha1.PodProbeMarker) {
			probe(m).MarkerPolicy[0].Labels = map[string]string{"bad key!": "x"}
		}, []wantErr{invalid("spec.probes[0].markerPolicy[0].labels")}},
		{"marker policy with nothing to put", func(m *v1alpha1.PodProbeMarker) { probe(m).MarkerPolicy[0].Labels = nil },
			[]wantErr{required("spec.probes[0].markerPolicy[0]")}},
		{"neither marker policy nor condition", func(m *v1alpha1.PodProbeMarker) {
			probe(m).MarkerPolicy, probe(m).PodConditionType = nil, ""
		}, []wantErr{required("spec.probes[0].podConditionType")}},
		{"kubelet's Ready condition", func(m *v1alpha1.PodProbeMarker) { probe(m).PodConditionType = "Ready" },
			[]wantErr{forbidden("spec.probes[0].podConditionType")}},
		{"condition type that is no qualified name", func(m *v1alpha1.PodProbeMarker) { probe(m).PodConditionType = "game io/idle" },
			[]wantErr{invalid("spec.probes[0].podConditionType")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectErrors(t, ValidatePodProbeMarker(marker(t, tc.mutate)), tc.want...)
		})
	}
}

func TestValidatePodProbeMarkerUpdate(t *testing.T) {
	old := marker(t, nil)
	old.ResourceVersion = "1"
	changed := marker(t, func(m *v1alpha1.PodProbeMarker) { m.Spec.Probes[0].Probe.PeriodSeconds = 5 })
	changed.ResourceVersion = "1"
	expectErrors(t, ValidatePodProbeMarkerUpdate(changed, old))

	moved := marker(t, func(m *v1alpha1.PodProbeMarker) { m.Spec.Selector.MatchLabels["app"] = "other" })
	moved.ResourceVersion = "1"
	expectErrors(t, ValidatePodProbeMarkerUpdate(moved, old), invalid("spec.selector", "immutable"))
}

// The documented example (examples/podprobemarker.yaml) defaults to kube's probe
// numbers where it leaves them out and is valid.
func TestDocumentedPodProbeMarker(t *testing.T) {
	data, err := examples.Read("podprobemarker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := bytes.Cut(data, []byte("\n---\n"))
	v := &v1alpha1.PodProbeMarker{}
	if err := yaml.UnmarshalStrict(doc, v); err != nil {
		t.Fatal(err)
	}
	v.Namespace = requestNamespace
	v1alpha1.SetObjectDefaults_PodProbeMarker(v)
	ppm := &apps.PodProbeMarker{}
	toInternal(t, v, ppm)
	expectErrors(t, ValidatePodProbeMarker(ppm))
	p := ppm.Spec.Probes[0].Probe
	if p.PeriodSeconds != 10 || p.TimeoutSeconds != 3 || p.FailureThreshold != 3 || p.SuccessThreshold != 1 || p.InitialDelaySeconds != 10 {
		t.Errorf("probe numbers: %+v", p)
	}
}

func TestValidateNodePodProbe(t *testing.T) {
	valid := func() *apps.NodePodProbe {
		return &apps.NodePodProbe{
			ObjectMeta: metav1.ObjectMeta{Name: "node-1"},
			Spec: apps.NodePodProbeSpec{PodProbes: []apps.PodProbe{{Name: "p", Namespace: "default", UID: "u1", IP: "10.0.0.1",
				Probes: []apps.ContainerProbe{{Name: "ppm#Idle", ContainerName: "main", Probe: apps.ContainerProbeSpec{Probe: corev1.Probe{
					ProbeHandler:   corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}},
					TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}}}}}}},
		}
	}
	expectErrors(t, ValidateNodePodProbe(valid()))

	bad := valid()
	bad.Spec.PodProbes[0].UID = ""
	bad.Spec.PodProbes[0].Probes[0].Name = "Idle"
	expectErrors(t, ValidateNodePodProbe(bad), required("spec.podProbes[0].uid"), invalid("spec.podProbes[0].probes[0].name"))

	old := valid()
	old.ResourceVersion = "1"
	st := valid()
	st.ResourceVersion = "1"
	st.Status.PodProbeStatuses = []apps.PodProbeStatus{{Name: "p", Namespace: "default", UID: "u1",
		ProbeStates: []apps.ContainerProbeState{{Name: "ppm#Idle", State: "Maybe"}}}}
	expectErrors(t, ValidateNodePodProbeStatusUpdate(st, old), notSupported("status.podProbeStatuses[0].probeStates[0].state"))
}
