package imagepredownload

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A CloneSet annotated apps.kruise.io/image-predownload-ignored gets no pre-download:
// the same partitioned rollout that makes a job in TestPartitionedCloneSetPreDownloads
// (3 updated pods ready, imagePreDownloadMinUpdatedReadyPods 3) makes none here.
func TestIgnoredCloneSetDoesNotPreDownload(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	labels := map[string]string{"app": "predl"}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "predl", Annotations: map[string]string{"apps.kruise.io/image-predownload-ignored": "true"}},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](5),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: spreadTemplate(labels),
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{
				Type:                  v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType,
				Partition:             ptr.To(intstr.FromInt32(2)),
				InPlaceUpdateStrategy: oneImageStrategy(),
			},
		},
	}
	client := kc.AppsV1alpha1().CloneSets(ns)
	created, err := client.Create(ctx, cs, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, client, time.Minute, func(s v1alpha1.CloneSetStatus) bool { return s.ReadyReplicas == 5 })
	if _, err := client.Patch(ctx, "predl", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, client, 2*time.Minute, func(s v1alpha1.CloneSetStatus) bool {
		return s.UpdatedReadyReplicas == 3 && s.UpdateRevision != s.CurrentRevision
	})
	jobSelector := "apps.kruise.io/image-predownload-owner-uid=" + string(created.UID)
	framework.Consistently(t, 10*time.Second, func() (bool, string) {
		jobs, err := kc.AppsV1alpha1().ImagePullJobs(ns).List(ctx, metav1.ListOptions{LabelSelector: jobSelector})
		if err != nil {
			return false, err.Error()
		}
		return len(jobs.Items) == 0, fmt.Sprintf("%d pre-download job(s) for an ignored CloneSet", len(jobs.Items))
	})
}
