package containerrecreaterequest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
)

// A phase decision is written as a status patch of the controller's fields with the
// resourceVersion it was made on; refused (the daemon wrote meanwhile), the sync
// returns the conflict, so the queue retries it, and announces nothing.
func TestSyncWritesDecisionOnTheVersionItRead(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	crr := &v1alpha1.ContainerRecreateRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "crr", Namespace: "ns", ResourceVersion: "7",
			CreationTimestamp: metav1.NewTime(now.Add(-2 * PickupTimeout)),
			Labels: map[string]string{v1alpha1.ContainerRecreateRequestPodUIDKey: "uid-1",
				v1alpha1.ContainerRecreateRequestNodeNameKey: "node-a", v1alpha1.ContainerRecreateRequestActiveKey: "true"}},
		Spec:   v1alpha1.ContainerRecreateRequestSpec{PodName: "web", Containers: []v1alpha1.ContainerRecreateRequestContainer{{Name: "app"}}},
		Status: v1alpha1.ContainerRecreateRequestStatus{Phase: v1alpha1.ContainerRecreateRequestPending},
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "uid-1"}}
	crrs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_ = crrs.Add(crr)
	_ = pods.Add(pod)

	client := fake.NewSimpleClientset(crr)
	refuse := true
	var sent []clienttesting.PatchAction
	client.PrependReactor("patch", "containerrecreaterequests", func(a clienttesting.Action) (bool, runtime.Object, error) {
		p := a.(clienttesting.PatchAction)
		sent = append(sent, p)
		if refuse {
			return true, nil, apierrors.NewConflict(v1alpha1.Resource("containerrecreaterequests"), "crr", nil)
		}
		return true, crr, nil
	})
	recorder := record.NewFakeRecorder(10)
	c := &Controller{
		kubeClient: kubefake.NewClientset(), kruiseClient: client, recorder: recorder,
		crrs: kruiselisters.NewContainerRecreateRequestLister(crrs), crrIndexer: crrs,
		pods: corelisters.NewPodLister(pods), now: func() time.Time { return now },
	}

	// Pending past the pickup timeout: Failed, refused.
	if _, err := c.sync(ctx, "ns/crr"); !apierrors.IsConflict(err) {
		t.Fatalf("refused decision: sync returned %v, want the conflict (so the queue retries)", err)
	}
	if len(recorder.Events) != 0 {
		t.Errorf("a refused decision was announced: %s", <-recorder.Events)
	}
	refuse = false
	if _, err := c.sync(ctx, "ns/crr"); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if len(recorder.Events) != 1 {
		t.Errorf("%d events for the written decision, want 1", len(recorder.Events))
	}
	if len(sent) != 2 {
		t.Fatalf("%d patches, want 2", len(sent))
	}
	p := sent[1]
	if p.GetSubresource() != "status" || p.GetPatchType() != "application/merge-patch+json" {
		t.Errorf("patch of %q as %s, want a merge patch of status", p.GetSubresource(), p.GetPatchType())
	}
	var body struct {
		Metadata map[string]any `json:"metadata"`
		Status   map[string]any `json:"status"`
	}
	if err := json.Unmarshal(p.GetPatch(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Metadata["resourceVersion"] != "7" || len(body.Metadata) != 1 {
		t.Errorf("metadata %v, want only the resourceVersion decided on (7)", body.Metadata)
	}
	if body.Status["phase"] != "Failed" || body.Status["completionTime"] == nil {
		t.Errorf("status %v, want phase Failed with a completionTime", body.Status)
	}
	if _, ok := body.Status["containerRecreateStates"]; ok {
		t.Errorf("the controller wrote the daemon's containerRecreateStates: %s", p.GetPatch())
	}
}
