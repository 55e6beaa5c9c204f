package imagepulljob

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiselisters "github.com/kruise-native/kruise-native/pkg/generated/listers/apps/v1alpha1"
)

// Under a NodeImage's key the controller drops the tags of jobs that are gone, with an
// update of the version it read; refused, the sync returns the conflict for the queue
// to retry.
func TestPruneNodeImageKey(t *testing.T) {
	ctx := context.Background()
	gone := corev1.ObjectReference{Kind: "ImagePullJob", Namespace: "ns", Name: "gone", UID: "uid-gone"}
	ni := &v1alpha1.NodeImage{
		ObjectMeta: metav1.ObjectMeta{Name: "node-a", ResourceVersion: "5"},
		Spec: v1alpha1.NodeImageSpec{Images: map[string]v1alpha1.ImageSpec{
			"nginx": {Tags: []v1alpha1.ImageTagSpec{{Tag: "1", OwnerReferences: []corev1.ObjectReference{gone}}}},
			"mine":  {Tags: []v1alpha1.ImageTagSpec{{Tag: "by-hand"}}},
		}},
	}
	nis := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	jobs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_ = nis.Add(ni)
	client := fake.NewSimpleClientset(ni)
	refuse := true
	var written *v1alpha1.NodeImage
	client.PrependReactor("update", "nodeimages", func(a clienttesting.Action) (bool, runtime.Object, error) {
		if refuse {
			return true, nil, apierrors.NewConflict(v1alpha1.Resource("nodeimages"), ni.Name, nil)
		}
		written = a.(clienttesting.UpdateAction).GetObject().(*v1alpha1.NodeImage)
		return true, written, nil
	})
	c := &Controller{kruiseClient: client, nodeImages: kruiselisters.NewNodeImageLister(nis),
		jobs: kruiselisters.NewImagePullJobLister(jobs), now: time.Now}

	if _, err := c.sync(ctx, nodeImageKeyPrefix+"node-a"); !apierrors.IsConflict(err) {
		t.Fatalf("refused prune: sync returned %v, want the conflict", err)
	}
	refuse = false
	if _, err := c.sync(ctx, nodeImageKeyPrefix+"node-a"); err != nil {
		t.Fatal(err)
	}
	if written == nil || written.ResourceVersion != "5" {
		t.Fatalf("written %v, want an update of resourceVersion 5", written)
	}
	if _, ok := written.Spec.Images["nginx"]; ok {
		t.Errorf("the gone job's tag stayed: %+v", written.Spec.Images)
	}
	if _, ok := written.Spec.Images["mine"]; !ok {
		t.Errorf("a tag added by hand went: %+v", written.Spec.Images)
	}
}
