package persistentpodstate

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruise(t *testing.T) kruiseclient.Interface {
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// waitRecorded waits until the PersistentPodState records every named pod with a
// topology label, and returns it.
func waitRecorded(t *testing.T, ns, name string, pods ...string) *appsv1beta1.PersistentPodState {
	t.Helper()
	var pps *appsv1beta1.PersistentPodState
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		var err error
		pps, err = kruise(t).AppsV1beta1().PersistentPodStates(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, p := range pods {
			if st, ok := pps.Status.PodStates[p]; !ok || st.NodeName == "" || len(st.NodeTopologyLabels) == 0 {
				return false, nil
			}
		}
		return true, nil
	})
	return pps
}

// recreate deletes the pod and waits for its replacement (same name, new UID) to be
// scheduled and Ready.
func recreate(t *testing.T, ns, name string) *corev1.Pod {
	t.Helper()
	ctx := context.Background()
	pods := framework.Get(t).Client.CoreV1().Pods(ns)
	old, err := pods.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatalf("deleting %s: %v", name, err)
	}
	var pod *corev1.Pod
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pod, err = pods.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		return pod.UID != old.UID && pod.Spec.NodeName != "" && ready(pod), nil
	})
	return pod
}

func ready(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// requiredValue is the value the pod's required node affinity asks for key ("" if none).
func requiredValue(pod *corev1.Pod, key string) string {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, r := range term.MatchExpressions {
			if r.Key == key && r.Operator == corev1.NodeSelectorOpIn && len(r.Values) == 1 {
				return r.Values[0]
			}
		}
	}
	return ""
}
