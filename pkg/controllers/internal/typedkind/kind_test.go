package typedkind

import (
	"context"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

// A Kind built from generated code reads and writes through the client and reads the
// cache through the lister.
func TestKindFromGeneratedClientAndLister(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientset()
	jobs := informers.NewSharedInformerFactory(kube, 0).Batch().V1().Jobs()
	k := Cached(New[*batchv1.Job](batchv1.SchemeGroupVersion.WithKind("Job"), kube.BatchV1().Jobs), jobs.Lister().Jobs)

	created, err := k.Client("ns").Create(ctx, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "ns"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := k.Client("ns").Get(ctx, "j", metav1.GetOptions{}); err != nil || got.Name != created.Name {
		t.Fatalf("live read: %v, %v", got, err)
	}
	if err := jobs.Informer().GetIndexer().Add(created); err != nil {
		t.Fatal(err)
	}
	if list, err := k.Lister("ns").List(labels.Everything()); err != nil || len(list) != 1 {
		t.Fatalf("cached list: %v, %v", list, err)
	}
	if err := k.Client("ns").Delete(ctx, "j", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if k.GVK.Kind != "Job" {
		t.Errorf("GVK = %v", k.GVK)
	}
}
