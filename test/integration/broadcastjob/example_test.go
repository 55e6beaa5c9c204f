package broadcastjob

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// exampleJob is OpenKruise's documented BroadcastJob (perl computing pi on every
// node), its TTL shortened and its pods' modelled run time 1 s.
const exampleJob = `apiVersion: apps.kruise.io/v1beta1
kind: BroadcastJob
metadata:
  name: pi
spec:
  template:
    metadata:
      annotations:
        job.kwok.kruise-native.io/run-time: 1s
    spec:
      containers:
      - name: pi
        image: perl
        command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
  completionPolicy:
    type: Always
    ttlSecondsAfterFinished: 5
`

// The example runs one pod pinned to each node, completes with every pod succeeded,
// and is deleted ttlSecondsAfterFinished after it completed.
func TestExampleOnePodPerNodeCompletesAndExpires(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	if out, err := c.KubectlStdin(t, exampleJob, "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	nodes, err := c.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	desired := int32(len(nodes.Items))

	var job *v1beta1.BroadcastJob
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		job, err = kc.AppsV1beta1().BroadcastJobs(ns).Get(ctx, "pi", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := job.Status
		if s.Phase != v1beta1.PhaseCompleted {
			return false, fmt.Errorf("status %+v", s)
		}
		return true, nil
	})
	s := job.Status
	if s.Desired != desired || s.Succeeded != desired || s.Active != 0 || s.Failed != 0 {
		t.Errorf("completed with status %+v, want desired = succeeded = %d", s, desired)
	}
	if s.StartTime == nil || s.CompletionTime == nil || !hasCondition(job, v1beta1.JobComplete) {
		t.Errorf("completed without start/completion time or Complete condition: %+v", s)
	}

	pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "broadcastjob-name=pi"})
	if err != nil {
		t.Fatal(err)
	}
	perNode := map[string]int{}
	for _, p := range pods.Items {
		perNode[p.Spec.NodeName]++
		if p.Status.Phase != corev1.PodSucceeded {
			t.Errorf("pod %s on %s is %s", p.Name, p.Spec.NodeName, p.Status.Phase)
		}
		if ref := metav1.GetControllerOf(&p); ref == nil || ref.UID != job.UID || ref.Kind != "BroadcastJob" {
			t.Errorf("pod %s controller ref %+v, want the job", p.Name, ref)
		}
	}
	for _, n := range nodes.Items {
		if perNode[n.Name] != 1 {
			t.Errorf("node %s ran %d pods, want 1 (all: %v)", n.Name, perNode[n.Name], perNode)
		}
	}

	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := kc.AppsV1beta1().BroadcastJobs(ns).Get(ctx, "pi", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, fmt.Errorf("job still there (err %v)", err)
	})
}

func hasCondition(job *v1beta1.BroadcastJob, t v1beta1.JobConditionType) bool {
	return condition(job, t) != nil
}
