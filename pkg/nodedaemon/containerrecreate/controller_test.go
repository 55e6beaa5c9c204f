package containerrecreate

import (
	"context"
	"encoding/json"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	appslisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
)

// The daemon writes its step as a patch of its own fields with the resourceVersion it
// decided on; refused (kruise-controller wrote meanwhile), the sync returns the
// conflict, so the queue retries it on the fresh request.
func TestSyncWritesStepOnTheVersionItRead(t *testing.T) {
	ctx := context.Background()
	req := crr(withContexts, phase(pending), func(c *v1alpha1.ContainerRecreateRequest) { c.ResourceVersion = "7" })
	crrs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_ = crrs.Add(req)
	_ = pods.Add(pod())

	client := fake.NewSimpleClientset(req)
	refuse := true
	var sent []clienttesting.PatchAction
	client.PrependReactor("patch", "containerrecreaterequests", func(a clienttesting.Action) (bool, runtime.Object, error) {
		sent = append(sent, a.(clienttesting.PatchAction))
		if refuse {
			return true, nil, apierrors.NewConflict(v1alpha1.Resource("containerrecreaterequests"), req.Name, nil)
		}
		return true, req, nil
	})
	c := &Controller{kube: kubefake.NewClientset(), kruise: client, recorder: &record.FakeRecorder{}, clock: clocktesting.NewFakePassiveClock(now),
		crrs: appslisters.NewContainerRecreateRequestLister(crrs), crrIndex: crrs, pods: corelisters.NewPodLister(pods)}

	// Pending with its contexts recorded: the daemon takes it (Recreating).
	if _, err := c.sync(ctx, "ns/crr"); !apierrors.IsConflict(err) {
		t.Fatalf("refused step: sync returned %v, want the conflict (so the queue retries)", err)
	}
	refuse = false
	if _, err := c.sync(ctx, "ns/crr"); err != nil {
		t.Fatalf("retry: %v", err)
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
	if body.Status["phase"] != "Recreating" || body.Status["containerRecreateStates"] == nil || len(body.Status) != 2 {
		t.Errorf("status %v, want phase Recreating and the container states only", body.Status)
	}
}
