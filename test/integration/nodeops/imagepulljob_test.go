package nodeops

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The documented job, with its node names adapted to the kwok nodes, pulls nginx:1.9.1
// on both nodes through their NodeImages and completes; `kubectl get imagepulljobs`
// shows TOTAL 2 SUCCEED 2. Deleting the job takes its tag out of the NodeImages.
func TestImagePullJobExample(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)

	manifest := strings.NewReplacer("- node-1", "- kwok-node-1", "- node-2", "- kwok-node-2").
		Replace(readExample(t, "imagepulljob.yaml"))
	if _, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}

	var job *v1alpha1.ImagePullJob
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		var err error
		job, err = kc.AppsV1alpha1().ImagePullJobs(ns).Get(ctx, "job-with-always", metav1.GetOptions{})
		return err == nil && job.Status.CompletionTime != nil, err
	})
	if job.Status.Desired != 2 || job.Status.Succeeded != 2 || job.Status.Failed != 0 {
		t.Fatalf("job status = %+v, want desired 2, succeeded 2", job.Status)
	}
	out := kubectl(t, "get", "imagepulljobs", "-n", ns)
	if got, want := headerFields(out), []string{"NAME", "TOTAL", "ACTIVE", "SUCCEED", "FAILED", "AGE", "MESSAGE"}; !slices.Equal(got, want) {
		t.Fatalf("header = %v, want %v\n%s", got, want, out)
	}
	if r := row(out, "job-with-always"); len(r) < 5 || r[1] != "2" || r[2] != "0" || r[3] != "2" || r[4] != "0" {
		t.Fatalf("want TOTAL 2 ACTIVE 0 SUCCEED 2 FAILED 0, got\n%s", out)
	}

	for _, node := range []string{"kwok-node-1", "kwok-node-2"} {
		ni, err := kc.AppsV1alpha1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tags := ni.Spec.Images["nginx"].Tags
		if len(tags) == 0 || tags[0].Tag != "1.9.1" || len(tags[0].OwnerReferences) == 0 || tags[0].OwnerReferences[0].UID != job.UID {
			t.Fatalf("NodeImage %s lists %+v, want nginx:1.9.1 owned by the job", node, ni.Spec.Images)
		}
		if p := tags[0].PullPolicy; p == nil || p.TimeoutSeconds == nil || *p.TimeoutSeconds != 300 || *p.BackoffLimit != 3 {
			t.Fatalf("tag pull policy = %+v, want the job's timeout 300 and backoffLimit 3", p)
		}
		if ps := ni.Spec.Images["nginx"].PullSecrets; len(ps) != 1 || ps[0] != (v1alpha1.ReferenceObject{Namespace: ns, Name: "secret-name1"}) {
			t.Fatalf("pull secrets = %+v, want %s/secret-name1", ps, ns)
		}
	}
	if ni, err := kc.AppsV1alpha1().NodeImages().Get(ctx, "kwok-node-0", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	} else if _, ok := ni.Spec.Images["nginx"]; ok {
		t.Fatalf("kwok-node-0 is not selected, yet its NodeImage lists nginx")
	}

	if err := kc.AppsV1alpha1().ImagePullJobs(ns).Delete(ctx, "job-with-always", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		for _, node := range []string{"kwok-node-1", "kwok-node-2"} {
			ni, err := kc.AppsV1alpha1().NodeImages().Get(ctx, node, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			if _, ok := ni.Spec.Images["nginx"]; ok {
				return false, nil
			}
		}
		return true, nil
	})
}

// Parallelism bounds how many nodes pull at once: with 2, three nodes and a pull that
// takes 15 s (the fake runtime's slow.invalid registry), two nodes pull together and the
// third starts only when one of them finished.
func TestImagePullJobParallelism(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)

	nodes := []string{"kwok-node-0", "kwok-node-1", "kwok-node-2"}
	job := &v1alpha1.ImagePullJob{ObjectMeta: metav1.ObjectMeta{Name: "two-at-a-time"},
		Spec: v1alpha1.ImagePullJobSpec{Image: "slow.invalid/app:1"}}
	job.Spec.Selector = &v1alpha1.ImagePullJobNodeSelector{Names: nodes}
	job.Spec.Parallelism = ptr.To(intstr.FromInt32(2))
	if _, err := kc.AppsV1alpha1().ImagePullJobs(ns).Create(ctx, job, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	maxPulling, maxListed := 0, 0
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		// One list, not a get per node: a snapshot at one resourceVersion. The controller
		// lists the third node only after it saw a pull finish, and separate gets could
		// read that finished node before it finished and the third after it was listed.
		all, err := kc.AppsV1alpha1().NodeImages().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		listed, pulling := 0, 0
		for i := range all.Items {
			ni := &all.Items[i]
			if !slices.Contains(nodes, ni.Name) {
				continue
			}
			if _, ok := ni.Spec.Images["slow.invalid/app"]; !ok {
				continue
			}
			listed++
			if !tagFinished(ni, "slow.invalid/app", "1") {
				pulling++
			}
		}
		if pulling > 2 {
			t.Fatalf("%d nodes pulling at once with parallelism 2", pulling)
		}
		maxPulling, maxListed = max(maxPulling, pulling), max(maxListed, listed)
		got, err := kc.AppsV1alpha1().ImagePullJobs(ns).Get(ctx, job.Name, metav1.GetOptions{})
		return err == nil && got.Status.CompletionTime != nil && got.Status.Succeeded == 3, err
	})
	if maxPulling != 2 || maxListed != 3 {
		t.Fatalf("at most %d nodes pulled together and %d were reached; want 2 and all 3", maxPulling, maxListed)
	}
}

func tagFinished(ni *v1alpha1.NodeImage, image, tag string) bool {
	for _, st := range ni.Status.ImageStatuses[image].Tags {
		if st.Tag == tag && (st.Phase == v1alpha1.ImagePhaseSucceeded || st.Phase == v1alpha1.ImagePhaseFailed) {
			return true
		}
	}
	return false
}

// Bad jobs are refused with the field at fault, and nothing is stored.
func TestImagePullJobRejectsBadInput(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	cases := []struct {
		name, manifest, field string
	}{
		{"names and labels", `
apiVersion: apps.kruise.io/v1alpha1
kind: ImagePullJob
metadata: {name: bad}
spec:
  image: nginx:1.9.1
  selector: {names: [kwok-node-0], matchLabels: {zone: a}}
`, "spec.selector"},
		{"pod and node selectors", `
apiVersion: apps.kruise.io/v1alpha1
kind: ImagePullJob
metadata: {name: bad}
spec:
  image: nginx:1.9.1
  selector: {names: [kwok-node-0]}
  podSelector: {matchLabels: {app: x}}
`, "spec.podSelector"},
		{"Never with a TTL", `
apiVersion: apps.kruise.io/v1alpha1
kind: ImagePullJob
metadata: {name: bad}
spec:
  image: nginx:1.9.1
  completionPolicy: {type: Never, ttlSecondsAfterFinished: 10}
`, "spec.completionPolicy.ttlSecondsAfterFinished"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.KubectlStdin(t, tc.manifest, "apply", "-n", ns, "-f", "-")
			if err == nil {
				t.Fatalf("kubectl apply succeeded: %s", out)
			}
			if msg := err.Error(); !strings.Contains(msg, "is invalid") || !strings.Contains(msg, tc.field) {
				t.Fatalf("want an invalid error naming %s, got:\n%s", tc.field, msg)
			}
			_, err = kruiseClient(t).AppsV1alpha1().ImagePullJobs(ns).Get(context.Background(), "bad", metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				t.Fatalf("a refused job was stored (get: %v)", err)
			}
		})
	}
}

// An ImageListPullJob pulls each image through an ImagePullJob it owns, completes when
// they all have, and deleting it deletes them (garbage collection across the
// aggregated API).
func TestImageListPullJob(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)

	manifest := `
apiVersion: apps.kruise.io/v1alpha1
kind: ImageListPullJob
metadata: {name: warmup}
spec:
  images: [redis:7, fail.invalid/broken:1]
  selector: {names: [kwok-node-0]}
  pullPolicy: {backoffLimit: 0}
  completionPolicy: {type: Always}
`
	if _, err := c.KubectlStdin(t, manifest, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatal(err)
	}
	var list *v1alpha1.ImageListPullJob
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		var err error
		list, err = kc.AppsV1alpha1().ImageListPullJobs(ns).Get(ctx, "warmup", metav1.GetOptions{})
		return err == nil && list.Status.CompletionTime != nil, err
	})
	st := list.Status
	if st.Desired != 2 || st.Completed != 2 || st.Succeeded != 1 || len(st.FailedImageStatuses) != 1 ||
		st.FailedImageStatuses[0].Name != "fail.invalid/broken:1" {
		t.Fatalf("status = %+v, want 2 completed, redis succeeded, the broken image failed", st)
	}
	out := kubectl(t, "get", "imagelistpulljobs", "-n", ns)
	if got, want := headerFields(out), []string{"NAME", "TOTAL", "SUCCEEDED", "COMPLETED", "AGE"}; !slices.Equal(got, want) {
		t.Fatalf("header = %v, want %v", got, want)
	}
	jobs, err := kc.AppsV1alpha1().ImagePullJobs(ns).List(ctx, metav1.ListOptions{})
	if err != nil || len(jobs.Items) != 2 {
		t.Fatalf("want 2 ImagePullJobs owned by the list, got %d (%v)", len(jobs.Items), err)
	}

	if err := kc.AppsV1alpha1().ImageListPullJobs(ns).Delete(ctx, "warmup", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		jobs, err := kc.AppsV1alpha1().ImagePullJobs(ns).List(ctx, metav1.ListOptions{})
		return err == nil && len(jobs.Items) == 0, err
	})
}
