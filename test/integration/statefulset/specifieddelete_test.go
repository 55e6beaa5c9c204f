package statefulset

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const blocker = "example.com/deleting-blocker"

// apps.kruise.io/specified-delete on pods of an Advanced StatefulSet: each labelled pod
// is recreated at its ordinal (new UID, same name), through the preDelete hook, and
// no more of them at once than maxUnavailable allows.
func TestSpecifiedDeleteRecreatesThroughHook(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	one := intstr.FromInt32(1)
	set := &v1beta1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "sd"},
		Spec: v1beta1.StatefulSetSpec{
			Replicas:            ptr.To[int32](3),
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Selector:            &metav1.LabelSelector{MatchLabels: map[string]string{"app": "sd"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "sd", blocker: "true"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
			},
			UpdateStrategy: v1beta1.StatefulSetUpdateStrategy{
				Type:          appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &v1beta1.RollingUpdateStatefulSetStrategy{MaxUnavailable: &one},
			},
			Lifecycle: &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{blocker: "true"}}},
		},
	}
	if _, err := kruise(t).AppsV1beta1().StatefulSets(ns).Create(ctx, set, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "sd", 2*time.Minute, settled(3))
	before := livePods(t, ns)

	label := func(name string) {
		t.Helper()
		if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, name, types.MergePatchType,
			fmt.Appendf(nil, `{"metadata":{"labels":{%q:"true"}}}`, pub.SpecifiedDeleteKey), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	state := func(name string) string {
		p := livePods(t, ns)[name]
		return p.Labels[pub.LifecycleStateKey]
	}
	// sd-2 goes first, held by the hook (it stays ready: the hook does not mark it not
	// ready); sd-1, labelled next, waits: maxUnavailable 1 is taken.
	label("sd-2")
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return state("sd-2") == string(pub.LifecycleStatePreparingDelete), nil
	})
	label("sd-1")
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		pods := livePods(t, ns)
		ok := pods["sd-1"].UID == before["sd-1"].UID && pods["sd-2"].UID == before["sd-2"].UID &&
			state("sd-1") == string(pub.LifecycleStateNormal)
		return ok, fmt.Sprintf("while the hook holds sd-2: sd-1 is %q (%s), sd-2 %s", state("sd-1"), pods["sd-1"].UID, pods["sd-2"].UID)
	})

	// Each release lets one pod go; it comes back at its ordinal, and then the next goes.
	for _, name := range []string{"sd-2", "sd-1"} {
		framework.WaitFor(t, time.Minute, func() (bool, error) {
			return state(name) == string(pub.LifecycleStatePreparingDelete), nil
		})
		if _, err := c.Client.CoreV1().Pods(ns).Patch(ctx, name, types.MergePatchType,
			fmt.Appendf(nil, `{"metadata":{"labels":{%q:null}}}`, blocker), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			p, ok := livePods(t, ns)[name]
			return ok && p.UID != before[name].UID && isPodReady(&p), nil
		})
	}
	waitStatus(t, ns, "sd", time.Minute, settled(3))
	after := livePods(t, ns)
	if after["sd-0"].UID != before["sd-0"].UID {
		t.Errorf("sd-0, not labelled, was recreated")
	}
	for _, name := range []string{"sd-1", "sd-2"} {
		p := after[name]
		if _, ok := p.Labels[pub.SpecifiedDeleteKey]; ok || p.Labels[pub.LifecycleStateKey] != string(pub.LifecycleStateNormal) {
			t.Errorf("recreated %s: labels %v, want no specified-delete and lifecycle Normal", name, p.Labels)
		}
	}
}
