package imagepredownload

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The same for an Advanced StatefulSet: partition 2 keeps ordinals 0 and 1 at the old
// revision; once the 3 others are updated and ready the new image is pre-downloaded on
// the nodes of ordinals 0 and 1 only, and the job goes when the rollout completes.
func TestPartitionedStatefulSetPreDownloads(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	labels := map[string]string{"app": "predl-sts"}
	set := &v1beta1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "predl"},
		Spec: v1beta1.StatefulSetSpec{
			Replicas:            ptr.To[int32](5),
			ServiceName:         "predl",
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Selector:            &metav1.LabelSelector{MatchLabels: labels},
			Template:            spreadTemplate(labels),
			UpdateStrategy: v1beta1.StatefulSetUpdateStrategy{
				Type: appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &v1beta1.RollingUpdateStatefulSetStrategy{
					Partition:             ptr.To[int32](2),
					PodUpdatePolicy:       v1beta1.InPlaceIfPossiblePodUpdateStrategyType,
					InPlaceUpdateStrategy: oneImageStrategy(),
				},
			},
		},
	}
	client := kc.AppsV1beta1().StatefulSets(ns)
	created, err := client.Create(ctx, set, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wait := func(cond func(v1beta1.StatefulSetStatus) bool) v1beta1.StatefulSetStatus {
		var st v1beta1.StatefulSetStatus
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			s, err := client.Get(ctx, "predl", metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			st = s.Status
			return s.Status.ObservedGeneration == s.Generation && cond(s.Status), nil
		})
		return st
	}
	wait(func(s v1beta1.StatefulSetStatus) bool { return s.ReadyReplicas == 5 })
	jobSelector := "apps.kruise.io/image-predownload-owner-uid=" + string(created.UID)

	if _, err := client.Patch(ctx, "predl", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.28"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	st := wait(func(s v1beta1.StatefulSetStatus) bool {
		return s.UpdatedReadyReplicas == 3 && s.UpdateRevision != s.CurrentRevision
	})
	remaining := remainingNodes(t, ns, "app=predl-sts", st.UpdateRevision)
	if remaining.Len() != 2 {
		t.Fatalf("remaining pods run on nodes %v, want 2 nodes", remaining)
	}
	checkPreDownload(t, ns, jobSelector, "nginx:1.28", remaining)

	if _, err := client.Patch(ctx, "predl", types.MergePatchType,
		[]byte(`{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	wait(func(s v1beta1.StatefulSetStatus) bool {
		return s.UpdatedReadyReplicas == 5 && s.CurrentRevision == s.UpdateRevision
	})
	waitNoJobs(t, ns, jobSelector)
}
