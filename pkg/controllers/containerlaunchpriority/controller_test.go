package containerlaunchpriority

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// barrierPod has containers with the given launch priorities (as the webhook writes
// them) and the given containers ready.
func barrierPod(priorities map[string]int32, order []string, ready ...string) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "uid-1"}}
	for _, name := range order {
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: name, Env: []corev1.EnvVar{{
			Name: pub.ContainerLaunchBarrierEnv, ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: "web-barrier"},
				Key:                  pub.ContainerLaunchBarrierKey(priorities[name]),
			}},
		}}})
	}
	for _, name := range ready {
		pod.Status.ContainerStatuses = append(pod.Status.ContainerStatuses, corev1.ContainerStatus{Name: name, Ready: true})
	}
	return pod
}

func TestReleasedKeys(t *testing.T) {
	prio := map[string]int32{"sidecar": 10, "proxy": 10, "main": 0, "late": -1}
	order := []string{"main", "sidecar", "proxy", "late"}
	cases := []struct {
		ready []string
		want  []string
	}{
		{nil, []string{"p_10"}},
		{[]string{"sidecar"}, []string{"p_10"}},
		{[]string{"sidecar", "proxy"}, []string{"p_10", "p_0"}},
		{[]string{"sidecar", "proxy", "main"}, []string{"p_10", "p_0", "p_-1"}},
	}
	for _, tc := range cases {
		pod := barrierPod(prio, order, tc.ready...)
		p, waits := containerPriorities(pod)
		if !waits || !cmp.Equal(p, prio) {
			t.Fatalf("priorities = %v, %v", p, waits)
		}
		if got := releasedKeys(pod, p); !cmp.Equal(got, tc.want) {
			t.Errorf("ready %v: keys %v, want %v", tc.ready, got, tc.want)
		}
	}
	if _, waits := containerPriorities(&corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}}}); waits {
		t.Error("a pod without barrier env waits on nothing")
	}
}

// The first sync creates the ConfigMap, owned by the pod, with the highest key; later
// syncs add keys as containers become ready; nothing is written when nothing changes.
func TestSync(t *testing.T) {
	ctx := context.Background()
	prio := map[string]int32{"sidecar": 0, "main": -1}
	pod := barrierPod(prio, []string{"sidecar", "main"})
	client := fake.NewClientset(pod)
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	cms := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	c := &Controller{kubeClient: client, pods: corelisters.NewPodLister(pods), configMaps: corelisters.NewConfigMapLister(cms)}
	_ = pods.Add(pod)

	sync := func() *corev1.ConfigMap {
		t.Helper()
		if _, err := c.sync(ctx, "ns/web"); err != nil {
			t.Fatal(err)
		}
		cm, err := client.CoreV1().ConfigMaps("ns").Get(ctx, "web-barrier", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_ = cms.Update(cm)
		return cm
	}
	cm := sync()
	if !cmp.Equal(cm.Data, map[string]string{"p_0": "true"}) || len(cm.OwnerReferences) != 1 ||
		cm.OwnerReferences[0].UID != "uid-1" || cm.Labels[barrierLabel] != "true" {
		t.Fatalf("ConfigMap = %+v", cm)
	}
	writes := len(client.Actions())
	sync()
	if n := len(client.Actions()) - writes; n != 1 { // the test's own Get
		t.Errorf("nothing ready yet: %d calls, want no write", n-1)
	}

	ready := barrierPod(prio, []string{"sidecar", "main"}, "sidecar")
	_ = pods.Update(ready)
	if cm := sync(); !cmp.Equal(cm.Data, map[string]string{"p_0": "true", "p_-1": "true"}) {
		t.Errorf("after sidecar is ready: %v", cm.Data)
	}
}
