package podprobe

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// key names one probe of one pod.
type key struct{ uid, probe string }

// result is a probe's reported state.
type result struct {
	state   v1alpha1.ProbeState
	message string
	at      metav1.Time
}

// seed returns the results an existing status reports, for the probes of spec.
func seed(npp *v1alpha1.NodePodProbe) map[key]result {
	out := map[key]result{}
	inSpec := map[key]bool{}
	for _, pp := range npp.Spec.PodProbes {
		for _, p := range pp.Probes {
			inSpec[key{pp.UID, p.Name}] = true
		}
	}
	for _, ps := range npp.Status.PodProbeStatuses {
		for _, st := range ps.ProbeStates {
			k := key{ps.UID, st.Name}
			if inSpec[k] && (st.State == v1alpha1.ProbeSucceeded || st.State == v1alpha1.ProbeFailed) {
				out[k] = result{state: st.State, message: st.Message, at: st.LastTransitionTime}
			}
		}
	}
	return out
}

// statusOf is the status that reports results for the pods and probes of spec, in
// spec order; probes without a result yet are left out.
func statusOf(spec v1alpha1.NodePodProbeSpec, results map[key]result) v1alpha1.NodePodProbeStatus {
	var st v1alpha1.NodePodProbeStatus
	for _, pp := range spec.PodProbes {
		ps := v1alpha1.PodProbeStatus{Name: pp.Name, Namespace: pp.Namespace, UID: pp.UID}
		for _, p := range pp.Probes {
			r, ok := results[key{pp.UID, p.Name}]
			if !ok {
				continue
			}
			ps.ProbeStates = append(ps.ProbeStates, v1alpha1.ContainerProbeState{
				Name: p.Name, State: r.state, Message: r.message, LastProbeTime: r.at, LastTransitionTime: r.at,
			})
		}
		if len(ps.ProbeStates) > 0 {
			st.PodProbeStatuses = append(st.PodProbeStatuses, ps)
		}
	}
	return st
}

// threshold turns a run of equal results into a state, as the kubelet's prober does:
// the state moves only after successThreshold successes or failureThreshold failures
// in a row.
type threshold struct {
	success, failure int32
	last             bool
	run              int32
	started          bool
}

// observe records one result and returns the state it makes, or "" while the run is
// too short to change anything.
func (t *threshold) observe(ok bool) v1alpha1.ProbeState {
	if t.started && ok == t.last {
		t.run++
	} else {
		t.started, t.last, t.run = true, ok, 1
	}
	switch {
	case ok && t.run >= max(t.success, 1):
		return v1alpha1.ProbeSucceeded
	case !ok && t.run >= max(t.failure, 1):
		return v1alpha1.ProbeFailed
	}
	return ""
}
