package lifecycle

import (
	"encoding/json"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

const (
	kruisePodReady = corev1.PodConditionType(pub.KruisePodReadyConditionType)

	// The KruisePodReady condition's message is OpenKruise's: a JSON list of who holds
	// the pod not ready, [{"userAgent":"Lifecycle","key":"preDeleteHook"}], sorted; the
	// condition is False while the list is not empty. Other holders' entries are kept.
	userAgent        = "Lifecycle"
	preDeleteHookKey = "preDeleteHook"
	preUpdateHookKey = "preUpdateHook"

	// What the kubelet writes on Ready for an unready gate (see inplaceupdate).
	reasonGatesNotReady = "ReadinessGatesNotReady"
)

type notReadyHolder struct {
	UserAgent string `json:"userAgent"`
	Key       string `json:"key"`
}

func hasReadinessGate(pod *corev1.Pod) bool {
	for _, g := range pod.Spec.ReadinessGates {
		if g.ConditionType == kruisePodReady {
			return true
		}
	}
	return false
}

// readinessFor sets KruisePodReady for a pod entering state to: PreparingDelete and
// PreparingUpdate add their key when mark is set; Updated drops the update key, Normal
// and PreparingNormal drop both (whatever mark says, so a hook whose markPodNotReady
// was turned off meanwhile does not leave the pod unready). Pods without the gate are
// left alone. It reports whether the status changed.
func readinessFor(pod *corev1.Pod, to pub.LifecycleStateType, mark bool, now metav1.Time) bool {
	if !hasReadinessGate(pod) {
		return false
	}
	switch to {
	case pub.LifecycleStatePreparingDelete:
		if mark {
			return editHolders(pod, preDeleteHookKey, nil, now)
		}
	case pub.LifecycleStatePreparingUpdate:
		if mark {
			return editHolders(pod, preUpdateHookKey, nil, now)
		}
	case pub.LifecycleStateUpdated:
		return editHolders(pod, "", []string{preUpdateHookKey}, now)
	case pub.LifecycleStateNormal, pub.LifecycleStatePreparingNormal:
		return editHolders(pod, "", []string{preDeleteHookKey, preUpdateHookKey}, now)
	}
	return false
}

// editHolders adds the key add (if not empty) and removes the keys remove from the
// lifecycle's holders of KruisePodReady; it reports whether the pod changed.
func editHolders(pod *corev1.Pod, add string, remove []string, now metav1.Time) bool {
	c := podcondition.Find(pod.Status.Conditions, kruisePodReady)
	var holders []notReadyHolder
	if c != nil && c.Message != "" {
		_ = json.Unmarshal([]byte(c.Message), &holders) // not ours: start afresh, as OpenKruise
	}
	edited := false
	kept := holders[:0:0]
	for _, h := range holders {
		if h.UserAgent == userAgent && contains(remove, h.Key) {
			edited = true
			continue
		}
		kept = append(kept, h)
	}
	if add != "" && !containsHolder(kept, add) {
		kept = append(kept, notReadyHolder{UserAgent: userAgent, Key: add})
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
	changed := podcondition.Set(pod, corev1.PodCondition{Type: kruisePodReady, Status: status, Message: message}, now)
	if add != "" {
		// Taking the pod out of service: Ready False now, as the kubelet would on its
		// next sync, so endpoints drop the pod with this very write.
		if r := podcondition.Find(pod.Status.Conditions, corev1.PodReady); r == nil || r.Status != corev1.ConditionFalse {
			changed = podcondition.Set(pod, corev1.PodCondition{
				Type:    corev1.PodReady,
				Status:  corev1.ConditionFalse,
				Reason:  reasonGatesNotReady,
				Message: fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but False", kruisePodReady),
			}, now) || changed
		}
	}
	return changed
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func containsHolder(hs []notReadyHolder, key string) bool {
	for _, h := range hs {
		if h.UserAgent == userAgent && h.Key == key {
			return true
		}
	}
	return false
}
