package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's pkg/webhook/podprobemarker/validating, rule by rule; README "Other
// kinds" says which rules we do not match.
func TestUpstreamRulesPodProbeMarker(t *testing.T) {
	const f = "podprobemarker/validating/probe_create_update_handler.go:"
	probe := func(mut func(*apps.PodContainerProbe)) func(*apps.PodProbeMarker) {
		return func(m *apps.PodProbeMarker) { mut(&m.Spec.Probes[0]) }
	}
	second := func(mut func(*apps.PodContainerProbe)) func(*apps.PodProbeMarker) {
		return func(m *apps.PodProbeMarker) {
			p := *m.Spec.Probes[0].DeepCopy()
			p.Name, p.PodConditionType = "Busy", "game.io/busy"
			mut(&p)
			m.Spec.Probes = append(m.Spec.Probes, p)
		}
	}
	handler := func(mut func(*corev1.Probe)) func(*apps.PodProbeMarker) {
		return probe(func(p *apps.PodContainerProbe) { mut(&p.Probe.Probe) })
	}
	policy := func(mut func(*apps.ProbeMarkerPolicy)) func(*apps.PodProbeMarker) {
		return probe(func(p *apps.PodContainerProbe) { mut(&p.MarkerPolicy[0]) })
	}
	runUpstreamRules(t, upstreamKind[*apps.PodProbeMarker]{
		kind: "PodProbeMarker", valid: func() *apps.PodProbeMarker { return marker(t, nil) },
		validate: ValidatePodProbeMarker, validateUpdate: ValidatePodProbeMarkerUpdate,
	}, []upstreamRule[*apps.PodProbeMarker]{
		{rule: f + "validatePodProbeMarkerSpec: selector required",
			mut: func(m *apps.PodProbeMarker) { m.Spec.Selector = nil }, want: []wantErr{required("spec.selector")}},
		{rule: f + "validateSelector: selector not empty",
			mut: func(m *apps.PodProbeMarker) { m.Spec.Selector = matchLabels() }, want: []wantErr{invalid("spec.selector", "empty selector")}},
		{rule: f + "validateSelector: selector by kube's rules",
			mut: func(m *apps.PodProbeMarker) { m.Spec.Selector = matchLabels("app", "-a-") }, want: []wantErr{invalid("spec.selector.matchLabels")}},
		{rule: f + "validatePodProbeMarkerSpec: probes required",
			mut: func(m *apps.PodProbeMarker) { m.Spec.Probes = nil }, want: []wantErr{required("spec.probes")}},
		{rule: f + "validatePodProbeMarkerSpec: probe name without '#'",
			mut: probe(func(p *apps.PodContainerProbe) { p.Name = "idle#1" }), want: []wantErr{invalid("spec.probes[0].name")}},
		{rule: f + "validatePodProbeMarkerSpec: probe name required",
			mut: probe(func(p *apps.PodContainerProbe) { p.Name = "" }), want: []wantErr{required("spec.probes[0].name")}},
		{rule: f + "validatePodProbeMarkerSpec: containerName required",
			mut: probe(func(p *apps.PodContainerProbe) { p.ContainerName = "" }), want: []wantErr{required("spec.probes[0].containerName")}},
		{rule: f + "validatePodProbeMarkerSpec: probe name not a pod condition kube or Kruise writes",
			mut: probe(func(p *apps.PodContainerProbe) { p.Name = "Ready" }), want: []wantErr{forbidden("spec.probes[0].name")}},
		{rule: f + "validatePodProbeMarkerSpec: probe names unique",
			mut: second(func(p *apps.PodContainerProbe) { p.Name = "Idle" }), want: []wantErr{duplicate("spec.probes[1].name")}},
		{rule: f + "validateHandler: a handler required",
			mut:  handler(func(p *corev1.Probe) { p.Exec = nil }),
			want: []wantErr{required("spec.probes[0].probe")}},
		{rule: f + "validateHandler: at most one handler",
			mut:  handler(func(p *corev1.Probe) { p.TCPSocket = &corev1.TCPSocketAction{Port: intstr.FromInt32(80)} }),
			want: []wantErr{forbidden("spec.probes[0].probe")}},
		{rule: f + "validateExecAction: command required",
			mut:  handler(func(p *corev1.Probe) { p.Exec.Command = nil }),
			want: []wantErr{required("spec.probes[0].probe.exec.command")}},
		{rule: f + "validateTCPSocketAction: port a number or a name",
			mut: handler(func(p *corev1.Probe) {
				p.Exec, p.TCPSocket = nil, &corev1.TCPSocketAction{Port: intstr.FromInt32(70000)}
			}), want: []wantErr{invalid("spec.probes[0].probe.tcpSocket.port")}},
		{rule: f + "validateProbe: initialDelaySeconds not negative",
			mut:  handler(func(p *corev1.Probe) { p.InitialDelaySeconds = -1 }),
			want: []wantErr{invalid("spec.probes[0].probe.initialDelaySeconds")}},
		{rule: f + "validateProbe: timeoutSeconds, periodSeconds, successThreshold, failureThreshold not negative",
			mut: handler(func(p *corev1.Probe) {
				p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold = -1, -1, -1, -1
			}), want: []wantErr{invalid("spec.probes[0].probe.timeoutSeconds"), invalid("spec.probes[0].probe.periodSeconds"),
				invalid("spec.probes[0].probe.successThreshold"), invalid("spec.probes[0].probe.failureThreshold")}},
		{rule: f + "validatePodProbeMarkerSpec: podConditionType or markerPolicy",
			mut:  probe(func(p *apps.PodContainerProbe) { p.PodConditionType, p.MarkerPolicy = "", nil }),
			want: []wantErr{required("spec.probes[0].podConditionType")}},
		{rule: f + "validatePodProbeMarkerSpec: podConditionType unique",
			mut: second(func(p *apps.PodContainerProbe) { p.PodConditionType = "game.io/idle" }), want: []wantErr{duplicate("spec.probes[1].podConditionType")}},
		{rule: f + "validatePodProbeMarkerSpec: podConditionType a label name",
			mut: probe(func(p *apps.PodContainerProbe) { p.PodConditionType = "game.io/-idle" }), want: []wantErr{invalid("spec.probes[0].podConditionType")}},
		{rule: f + "validatePodProbeMarkerSpec: markerPolicy states unique",
			mut:  probe(func(p *apps.PodContainerProbe) { p.MarkerPolicy[1].State = p.MarkerPolicy[0].State }),
			want: []wantErr{duplicate("spec.probes[0].markerPolicy[1].state")}},
		{rule: f + "validateProbeMarkerPolicy: state True or False",
			mut: policy(func(mp *apps.ProbeMarkerPolicy) { mp.State = "Unknown" }), want: []wantErr{notSupported("spec.probes[0].markerPolicy[0].state")}},
		{rule: f + "validateProbeMarkerPolicy: labels or annotations",
			mut: policy(func(mp *apps.ProbeMarkerPolicy) { mp.Labels = nil }), want: []wantErr{required("spec.probes[0].markerPolicy[0]")}},
		{rule: f + "validateProbeMarkerPolicy: labels and annotations by kube's rules",
			mut:  policy(func(mp *apps.ProbeMarkerPolicy) { mp.Annotations = map[string]string{"-bad-": "x"} }),
			want: []wantErr{invalid("spec.probes[0].markerPolicy[0].annotations")}},
		{rule: f + "validatingPodProbeMarkerFn: selector immutable", update: true,
			mut: func(m *apps.PodProbeMarker) { m.Spec.Selector = matchLabels("app", "other") }, want: []wantErr{invalid("spec.selector", "immutable")}},
	})
}

// A marker stored with a probe named after a pod condition stays updatable while the
// probe keeps its name.
func TestPodProbeMarkerReservedNameRatchet(t *testing.T) {
	old := marker(t, nil)
	old.ResourceVersion = "1"
	old.Spec.Probes[0].Name = "Ready"
	m := old.DeepCopy()
	m.Spec.Probes[0].Probe.Probe.PeriodSeconds = 30
	expectErrors(t, ValidatePodProbeMarkerUpdate(m, old))
	m.Spec.Probes[0].Name = "PodScheduled"
	expectErrors(t, ValidatePodProbeMarkerUpdate(m, old), forbidden("spec.probes[0].name"))
}
