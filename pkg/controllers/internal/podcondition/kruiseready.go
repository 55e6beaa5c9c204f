package podcondition

import (
	"encoding/json"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// KruisePodReady is the readiness gate Kruise adds to the pods it manages. Several
// parties may hold a pod not ready through it (lifecycle hooks, container recreation);
// its message lists them, OpenKruise's way: [{"userAgent":"Lifecycle","key":"preDeleteHook"}],
// sorted. The condition is False while the list is not empty.
const KruisePodReady = corev1.PodConditionType(pub.KruisePodReadyConditionType)

// reasonGatesNotReady is what the kubelet writes on Ready for an unready gate.
const reasonGatesNotReady = "ReadinessGatesNotReady"

// NotReadyHolder is one party holding a pod not ready.
type NotReadyHolder struct {
	UserAgent string `json:"userAgent"`
	Key       string `json:"key"`
}

// HasKruisePodReadyGate reports whether the pod has the KruisePodReady readiness gate;
// without it, KruisePodReady has no effect on the pod's readiness.
func HasKruisePodReadyGate(pod *corev1.Pod) bool {
	for _, g := range pod.Spec.ReadinessGates {
		if g.ConditionType == KruisePodReady {
			return true
		}
	}
	return false
}

// NotReadyHolders lists who holds the pod not ready.
func NotReadyHolders(pod *corev1.Pod) []NotReadyHolder { return holders(pod) }

// HoldsNotReady reports whether userAgent holds the pod not ready under key.
func HoldsNotReady(pod *corev1.Pod, userAgent, key string) bool {
	return containsHolder(holders(pod), userAgent, key)
}

// EditNotReadyHolders adds userAgent's key add (if not empty) and removes its keys
// remove from the holders of KruisePodReady; holders of other user agents are kept.
// Adding a holder also sets Ready False, as the kubelet would on its next sync, so
// endpoints drop the pod with this very write. It reports whether the pod changed.
func EditNotReadyHolders(pod *corev1.Pod, userAgent, add string, remove []string, now metav1.Time) bool {
	c := Find(pod.Status.Conditions, KruisePodReady)
	edited := false
	var kept []NotReadyHolder
	for _, h := range holders(pod) {
		if h.UserAgent == userAgent && contains(remove, h.Key) {
			edited = true
			continue
		}
		kept = append(kept, h)
	}
	if add != "" && !containsHolder(kept, userAgent, add) {
		kept = append(kept, NotReadyHolder{UserAgent: userAgent, Key: add})
		edited = true
	}
	if !edited {
		// Already as wanted, unless the condition lists the key to add yet is not False.
		if add == "" || c == nil || c.Status == corev1.ConditionFalse {
			return false
		}
	}
	status, message := corev1.ConditionTrue, ""
	if len(kept) > 0 {
		sort.Slice(kept, func(i, j int) bool {
			if kept[i].UserAgent != kept[j].UserAgent {
				return kept[i].UserAgent < kept[j].UserAgent
			}
			return kept[i].Key < kept[j].Key
		})
		b, _ := json.Marshal(kept)
		status, message = corev1.ConditionFalse, string(b)
	}
	changed := Set(pod, corev1.PodCondition{Type: KruisePodReady, Status: status, Message: message}, now)
	if add != "" {
		if r := Find(pod.Status.Conditions, corev1.PodReady); r == nil || r.Status != corev1.ConditionFalse {
			changed = Set(pod, corev1.PodCondition{
				Type:    corev1.PodReady,
				Status:  corev1.ConditionFalse,
				Reason:  reasonGatesNotReady,
				Message: fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but False", KruisePodReady),
			}, now) || changed
		}
	}
	return changed
}

// holders reads the condition's list; a message that is not ours starts afresh, as in OpenKruise.
func holders(pod *corev1.Pod) []NotReadyHolder {
	c := Find(pod.Status.Conditions, KruisePodReady)
	var hs []NotReadyHolder
	if c != nil && c.Message != "" {
		_ = json.Unmarshal([]byte(c.Message), &hs)
	}
	return hs
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func containsHolder(hs []NotReadyHolder, userAgent, key string) bool {
	for _, h := range hs {
		if h.UserAgent == userAgent && h.Key == key {
			return true
		}
	}
	return false
}
