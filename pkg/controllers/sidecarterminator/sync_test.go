package sidecarterminator

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"
)

func newTestController(pods ...*corev1.Pod) (*Controller, *fake.Clientset) {
	client := fake.NewClientset()
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, p := range pods {
		_ = indexer.Add(p)
		_ = client.Tracker().Add(p)
	}
	return &Controller{kubeClient: client, pods: corelisters.NewPodLister(indexer), recorder: record.NewFakeRecorder(10)}, client
}

func statusPatches(client *fake.Clientset) []k8stesting.PatchAction {
	var out []k8stesting.PatchAction
	for _, a := range client.Actions() {
		if p, ok := a.(k8stesting.PatchAction); ok && a.GetSubresource() == "status" {
			out = append(out, p)
		}
	}
	return out
}

// One pods/status patch ends a pod the rule picks; pods it leaves alone get no write.
func TestSyncEndsPodOnce(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	done := jobPod(exited(0), running())
	busy := jobPod(running(), running())
	busy.Name = "busy"
	c, client := newTestController(done, busy)
	for _, key := range []string{"ns/p", "ns/busy", "ns/gone"} {
		if _, err := c.sync(ctx, key); err != nil {
			t.Fatalf("sync %s: %v", key, err)
		}
	}
	patches := statusPatches(client)
	if len(patches) != 1 || patches[0].GetName() != "p" {
		t.Fatalf("status patches = %v, want one for p", patches)
	}
	body := string(patches[0].GetPatch())
	for _, want := range []string{`"phase":"Succeeded"`, `"type":"SidecarTerminated"`, `"resourceVersion":"9"`} {
		if !strings.Contains(body, want) {
			t.Errorf("patch %s lacks %s", body, want)
		}
	}
}

// A refused write (the pod changed since the decision) is no error: the newer pod's
// event decides again.
func TestSyncConflictIsLeftToTheNextEvent(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c, client := newTestController(jobPod(exited(0), running()))
	client.PrependReactor("patch", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, "p", nil)
	})
	if _, err := c.sync(ctx, "ns/p"); err != nil {
		t.Fatalf("sync: %v", err)
	}
}
