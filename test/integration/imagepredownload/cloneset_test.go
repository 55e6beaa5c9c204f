package imagepredownload

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruisev1alpha1 "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/typed/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A partitioned in-place CloneSet rollout: once the 3 pods above the partition are
// updated and ready (imagePreDownloadMinUpdatedReadyPods 3), an
// ImagePullJob for the new image exists, with the configured parallelism and timeout,
// and it pulls on exactly the nodes of the pods not yet updated (one pod per node here);
// when the partition is lifted and the rollout completes, the job is gone.
func TestPartitionedCloneSetPreDownloads(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	client := kc.AppsV1alpha1().CloneSets(ns)
	created := partitionedCloneSet(t, client, "predl", nil)
	jobSelector := "apps.kruise.io/image-predownload-owner-uid=" + string(created.UID)
	if jobs, err := kc.AppsV1alpha1().ImagePullJobs(ns).List(ctx, metav1.ListOptions{LabelSelector: jobSelector}); err != nil || len(jobs.Items) != 0 {
		t.Fatalf("pre-download jobs before any rollout: %v %v", jobs, err)
	}

	st := rollImage(t, client, "predl")
	remaining := remainingNodes(t, ns, "app=predl", st.UpdateRevision)
	if remaining.Len() != 2 {
		t.Fatalf("remaining pods run on nodes %v, want 2 nodes", sets.List(remaining))
	}

	checkPreDownload(t, ns, jobSelector, "nginx:1.26", remaining)

	if _, err := client.Patch(ctx, "predl", types.MergePatchType, []byte(`{"spec":{"updateStrategy":{"partition":0}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, client, "predl", 2*time.Minute, func(s v1alpha1.CloneSetStatus) bool {
		return s.UpdatedReadyReplicas == 5 && s.CurrentRevision == s.UpdateRevision
	})
	waitNoJobs(t, ns, jobSelector)
}

// partitionedCloneSet creates CloneSet name with client (pods labelled app=name, one per node, 5
// replicas, partition 2, in place) and waits until its pods are ready.
func partitionedCloneSet(t *testing.T, client kruisev1alpha1.CloneSetInterface, name string, annotations map[string]string) *v1alpha1.CloneSet {
	t.Helper()
	labels := map[string]string{"app": name}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: annotations},
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
	created, err := client.Create(context.Background(), cs, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, client, name, time.Minute, func(s v1alpha1.CloneSetStatus) bool { return s.ReadyReplicas == 5 })
	return created
}

// rollImage changes CloneSet name's image and waits until the 3 pods above its
// partition are updated and ready (imagePreDownloadMinUpdatedReadyPods 3).
func rollImage(t *testing.T, client kruisev1alpha1.CloneSetInterface, name string) v1alpha1.CloneSetStatus {
	t.Helper()
	if _, err := client.Patch(context.Background(), name, types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	return waitStatus(t, client, name, 2*time.Minute, func(s v1alpha1.CloneSetStatus) bool {
		return s.UpdatedReadyReplicas == 3 && s.UpdateRevision != s.CurrentRevision
	})
}

// waitStatus waits until CloneSet name's controller has observed its spec and its
// status satisfies cond, and returns that status.
func waitStatus(t *testing.T, client kruisev1alpha1.CloneSetInterface, name string, timeout time.Duration, cond func(v1alpha1.CloneSetStatus) bool) v1alpha1.CloneSetStatus {
	t.Helper()
	var st v1alpha1.CloneSetStatus
	framework.WaitFor(t, timeout, func() (bool, error) {
		cs, err := client.Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		st = cs.Status
		return cs.Status.ObservedGeneration == cs.Generation && cond(cs.Status), nil
	})
	return st
}

// checkPreDownload waits for the one pre-download job of a workload and checks it: the
// image, parallelism 5 and timeout 120 configured, and that the nodes it pulls on
// (whose NodeImage asks for the image) are exactly remaining.
func checkPreDownload(t *testing.T, ns, jobSelector, image string, remaining sets.Set[string]) {
	t.Helper()
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
	var job v1alpha1.ImagePullJob
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		jobs, err := kc.AppsV1alpha1().ImagePullJobs(ns).List(ctx, metav1.ListOptions{LabelSelector: jobSelector})
		if err != nil || len(jobs.Items) == 0 {
			return false, err
		}
		if len(jobs.Items) != 1 {
			t.Fatalf("%d pre-download jobs, want 1 (one image changed)", len(jobs.Items))
		}
		job = jobs.Items[0]
		return true, nil
	})
	if job.Spec.Image != image || job.Spec.Parallelism == nil || job.Spec.Parallelism.IntValue() != 5 ||
		job.Spec.PullPolicy == nil || ptr.Deref(job.Spec.PullPolicy.TimeoutSeconds, 0) != 120 {
		t.Errorf("job spec %+v: want image %s, parallelism 5, timeout 120", job.Spec, image)
	}
	name, tagged, _ := strings.Cut(image, ":")
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		nis, err := kc.AppsV1alpha1().NodeImages().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		pulling := sets.New[string]()
		for _, ni := range nis.Items {
			for _, tag := range ni.Spec.Images[name].Tags {
				if tag.Tag == tagged {
					pulling.Insert(ni.Name)
				}
			}
		}
		if !pulling.Equal(remaining) {
			t.Logf("nodes pulling %s: %v; want %v", image, sets.List(pulling), sets.List(remaining))
			return false, nil
		}
		return true, nil
	})
}

// waitNoJobs waits until the workload's pre-download jobs are gone.
func waitNoJobs(t *testing.T, ns, jobSelector string) {
	t.Helper()
	kc := kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		jobs, err := kc.AppsV1alpha1().ImagePullJobs(ns).List(context.Background(), metav1.ListOptions{LabelSelector: jobSelector})
		return err == nil && len(jobs.Items) == 0, err
	})
}

// oneImageStrategy is the pre-download configuration of the tests.
func oneImageStrategy() *pub.InPlaceUpdateStrategy {
	return &pub.InPlaceUpdateStrategy{
		ImagePreDownloadParallelism:         ptr.To(intstr.FromInt32(5)),
		ImagePreDownloadTimeoutSeconds:      ptr.To[int32](120),
		ImagePreDownloadMinUpdatedReadyPods: ptr.To[int32](3),
	}
}

// spreadTemplate runs one pod per node, so the nodes of updated and remaining pods differ.
func spreadTemplate(labels map[string]string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{
			Containers:     []corev1.Container{{Name: "main", Image: "nginx:1.25"}},
			ReadinessGates: []corev1.PodReadinessGate{{ConditionType: pub.InPlaceUpdateReady}},
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.DoNotSchedule,
				LabelSelector: &metav1.LabelSelector{MatchLabels: labels}}},
		},
	}
}

// remainingNodes are the nodes of the pods labelled sel not at revision rev.
func remainingNodes(t *testing.T, ns, sel, rev string) sets.Set[string] {
	t.Helper()
	pods, err := framework.Get(t).Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	out := sets.New[string]()
	for _, p := range pods.Items {
		if p.Labels[pub.ControllerRevisionHashLabelKey] != rev {
			out.Insert(p.Spec.NodeName)
		}
	}
	return out
}
