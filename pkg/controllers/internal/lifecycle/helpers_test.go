package lifecycle

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podcondition"
)

var (
	t0 = metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	t1 = metav1.NewTime(t0.Add(10 * time.Second))
)

const (
	blockLabel = "example.io/block"
	blockFin   = "example.io/blocker"
)

// labelsHook / finalizersHook are hooks of each handler kind.
func labelsHook(mark bool) *pub.LifecycleHook {
	return &pub.LifecycleHook{LabelsHandler: map[string]string{blockLabel: "true"}, MarkPodNotReady: mark}
}

func finalizersHook(mark bool) *pub.LifecycleHook {
	return &pub.LifecycleHook{FinalizersHandler: []string{blockFin}, MarkPodNotReady: mark}
}

// pod builds a running, ready pod in state (none when ""), with opts applied.
func pod(state pub.LifecycleStateType, opts ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p-0", UID: "uid-1", Labels: map[string]string{"app": "x"}},
		Status: corev1.PodStatus{
			Phase:      corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0}},
		},
	}
	if state != "" {
		p.Labels[pub.LifecycleStateKey] = string(state)
		p.Annotations = map[string]string{pub.LifecycleTimestampKey: "2026-01-01T00:00:00Z"}
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func withLabel(p *corev1.Pod)     { p.Labels[blockLabel] = "true" }
func withFinalizer(p *corev1.Pod) { p.Finalizers = append(p.Finalizers, blockFin) }

// withGate gives the pod the KruisePodReady gate and the condition True.
func withGate(p *corev1.Pod) {
	p.Spec.ReadinessGates = append(p.Spec.ReadinessGates, corev1.PodReadinessGate{ConditionType: kruisePodReady})
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: kruisePodReady, Status: corev1.ConditionTrue, LastTransitionTime: t0})
}

// heldBy sets KruisePodReady False with message msg (the gate must be there).
func heldBy(msg string) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		c := podcondition.Find(p.Status.Conditions, kruisePodReady)
		c.Status, c.Message = corev1.ConditionFalse, msg
	}
}

const (
	msgDelete = `[{"userAgent":"Lifecycle","key":"preDeleteHook"}]`
	msgUpdate = `[{"userAgent":"Lifecycle","key":"preUpdateHook"}]`
	msgOther  = `[{"userAgent":"Other","key":"x"}]`
)
