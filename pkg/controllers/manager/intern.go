package manager

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
)

// stringTable keeps one copy of strings that every cached pod repeats: the namespace,
// label and annotation keys, owner kinds, images, node names and enum values such as
// condition types. Decoding gives each pod its own copy of each. Only fields of low
// cardinality are interned (never names, uids or label values), and the table stops
// growing at limit entries, so a cluster with unusual keys costs a bounded table
// rather than a growing one.
type stringTable struct {
	mu    sync.Mutex
	m     map[string]string
	limit int
}

func newStringTable(limit int) *stringTable {
	return &stringTable{m: map[string]string{}, limit: limit}
}

// intern returns the table's copy of s, adding s while there is room.
func (t *stringTable) intern(s string) string {
	if s == "" {
		return s
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, found := t.m[s]; found {
		return v
	}
	if len(t.m) < t.limit {
		t.m[s] = s
	}
	return s
}

func (t *stringTable) in(s *string) { *s = t.intern(*s) }

// keys replaces m's keys by the table's copies; values stay the pod's own.
func (t *stringTable) keys(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[t.intern(k)] = v
	}
	return out
}

// internPod shares the pod's repeated strings with every other cached pod. Values are
// unchanged; only which copy of equal bytes a field points to.
func (t *stringTable) internPod(pod *corev1.Pod) {
	t.in(&pod.Namespace)
	t.in(&pod.GenerateName)
	pod.Labels = t.keys(pod.Labels)
	pod.Annotations = t.keys(pod.Annotations)
	for i := range pod.OwnerReferences {
		t.in(&pod.OwnerReferences[i].APIVersion)
		t.in(&pod.OwnerReferences[i].Kind)
	}
	for i := range pod.Finalizers {
		t.in(&pod.Finalizers[i])
	}
	s := &pod.Spec
	t.in(&s.NodeName)
	t.in(&s.SchedulerName)
	t.in(&s.ServiceAccountName)
	t.in(&s.DeprecatedServiceAccount)
	t.in((*string)(&s.DNSPolicy))
	t.in((*string)(&s.RestartPolicy))
	for i := range s.ReadinessGates {
		t.in((*string)(&s.ReadinessGates[i].ConditionType))
	}
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			c := &cs[i]
			t.in(&c.Name)
			t.in(&c.Image)
			t.in((*string)(&c.ImagePullPolicy))
			t.in(&c.TerminationMessagePath)
			t.in((*string)(&c.TerminationMessagePolicy))
		}
	}
	st := &pod.Status
	t.in((*string)(&st.Phase))
	t.in((*string)(&st.QOSClass))
	t.in(&st.HostIP)
	for i := range st.HostIPs {
		t.in(&st.HostIPs[i].IP)
	}
	for i := range st.Conditions {
		t.in((*string)(&st.Conditions[i].Type))
		t.in((*string)(&st.Conditions[i].Status))
		t.in(&st.Conditions[i].Reason)
	}
	for _, cs := range [][]corev1.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for i := range cs {
			t.in(&cs[i].Name)
			t.in(&cs[i].Image)
			t.in(&cs[i].ImageID)
		}
	}
}
