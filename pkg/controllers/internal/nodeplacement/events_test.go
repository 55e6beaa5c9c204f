package nodeplacement

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestNodeHandlerWakesOnPlacementChanges(t *testing.T) {
	node := func(labels map[string]string, taints []corev1.Taint, ready corev1.ConditionStatus) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: labels}, Spec: corev1.NodeSpec{Taints: taints},
			Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: ready}}}}
	}
	base := node(map[string]string{"a": "1"}, nil, corev1.ConditionTrue)
	heartbeat := base.DeepCopy()
	heartbeat.Status.Conditions[0].LastHeartbeatTime = metav1.Now()
	cases := []struct {
		name string
		old  *corev1.Node
		cur  *corev1.Node
		opts []HandlerOption
		want int
	}{
		{"Ready turns False: not placement", base, node(map[string]string{"a": "1"}, nil, corev1.ConditionFalse), nil, 0},
		{"label changed", base, node(map[string]string{"a": "2"}, nil, corev1.ConditionTrue), nil, 1},
		{"taint added", base, node(map[string]string{"a": "1"}, []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}, corev1.ConditionTrue), nil, 1},
		{"WakeOnReadyChange: Ready turns False", base, node(map[string]string{"a": "1"}, nil, corev1.ConditionFalse), []HandlerOption{WakeOnReadyChange()}, 1},
		{"WakeOnReadyChange: Ready turns True", node(map[string]string{"a": "1"}, nil, corev1.ConditionUnknown), base, []HandlerOption{WakeOnReadyChange()}, 1},
		{"WakeOnReadyChange: heartbeat only", base, heartbeat, []HandlerOption{WakeOnReadyChange()}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			woken := 0
			NodeHandler(func() { woken++ }, tc.opts...).OnUpdate(tc.old, tc.cur)
			if woken != tc.want {
				t.Errorf("woken %d times, want %d", woken, tc.want)
			}
		})
	}
	woken := 0
	h := NodeHandler(func() { woken++ })
	h.OnAdd(base, false)
	h.OnDelete(base)
	if woken != 2 {
		t.Errorf("add and delete woke %d times, want 2", woken)
	}
	if !IsReady(base) || IsReady(node(nil, nil, corev1.ConditionUnknown)) || IsReady(&corev1.Node{}) {
		t.Error("IsReady: want true only for a True Ready condition")
	}
}
