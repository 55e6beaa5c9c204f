package imagepredownload

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// An Advanced DaemonSet (gate PreDownloadImageForDaemonSetUpdate) on the 5 nodes,
// rolled in place with partition 2 and the v1alpha1 pre-download annotations: once
// the 3 updated pods are ready the new image is pre-downloaded on the 2 nodes whose
// pods are not updated, and the job goes when the rollout completes.
func TestPartitionedDaemonSetPreDownloads(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	labels := map[string]string{"app": "predl-ds"}
	ds := &v1beta1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "predl", Annotations: map[string]string{
			pub.ImagePreDownloadParallelismKey:         "5",
			pub.ImagePreDownloadTimeoutSecondsKey:      "120",
			pub.ImagePreDownloadMinUpdatedReadyPodsKey: "3",
		}},
		Spec: v1beta1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
			UpdateStrategy: v1beta1.DaemonSetUpdateStrategy{
				Type: v1beta1.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &v1beta1.RollingUpdateDaemonSet{
					Type: v1beta1.InplaceRollingUpdateType, Partition: ptr.To[int32](2),
				},
			},
		},
	}
	client := kc.AppsV1beta1().DaemonSets(ns)
	created, err := client.Create(ctx, ds, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wait := func(cond func(v1beta1.DaemonSetStatus) bool) v1beta1.DaemonSetStatus {
		var st v1beta1.DaemonSetStatus
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
	wait(func(s v1beta1.DaemonSetStatus) bool { return s.DesiredNumberScheduled == 5 && s.NumberReady == 5 })
	jobSelector := "apps.kruise.io/image-predownload-owner-uid=" + string(created.UID)

	if _, err := client.Patch(ctx, "predl", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.28"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	st := wait(func(s v1beta1.DaemonSetStatus) bool { return s.UpdatedNumberScheduled == 3 && s.NumberReady == 5 })
	remaining := remainingNodes(t, ns, "app=predl-ds", st.UpdateRevision)
	if remaining.Len() != 2 {
		t.Fatalf("remaining pods run on nodes %v, want 2 nodes", remaining)
	}
	checkPreDownload(t, ns, jobSelector, "nginx:1.28", remaining)

	if _, err := client.Patch(ctx, "predl", types.MergePatchType,
		[]byte(`{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	wait(func(s v1beta1.DaemonSetStatus) bool { return s.UpdatedNumberScheduled == 5 && s.NumberReady == 5 })
	waitNoJobs(t, ns, jobSelector)
}
