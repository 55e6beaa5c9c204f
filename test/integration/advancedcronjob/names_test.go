package advancedcronjob

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Each run is named <name>-<Unix time of its start> and a Job's pods are labelled with
// the Job's name (63 characters at most): a 53-character AdvancedCronJob (and the
// 60-character one of issue 32) is refused at metadata.name, and nothing is stored; at
// 52 characters its Job runs and gets its pod.
func TestNameTooLongForRunsRefused(t *testing.T) {
	t.Parallel()
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	manifest := func(name string) string {
		return `apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: ` + name + `}
spec:
  schedule: "*/1 * * * *"
  template:
    jobTemplate:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: busybox}]
`
	}
	for _, n := range []int{53, 60} {
		name := strings.Repeat("c", n)
		out, err := c.KubectlStdin(t, manifest(name), "apply", "-n", ns, "-f", "-")
		if err == nil {
			t.Fatalf("a %d-character name was accepted: %s", n, out)
		}
		if msg := err.Error(); !strings.Contains(msg, "is invalid") || !strings.Contains(msg, "metadata.name: Invalid value") ||
			!strings.Contains(msg, "must be no more than 52 characters: its Jobs are named <name>-<scheduled Unix time>") {
			t.Errorf("a %d-character name: %q, want 422 at metadata.name with the limit", n, msg)
		}
		if _, err := getACJ(t, ns, name); !apierrors.IsNotFound(err) {
			t.Errorf("stored anyway (get: %v)", err)
		}
	}

	name := strings.Repeat("c", 52)
	apply(t, ns, manifest(name))
	// The first start is due within a minute.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pods, err := c.Client.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, p := range pods.Items {
			if job := p.Labels["job-name"]; strings.HasPrefix(job, name+"-") && len(job) == 63 {
				return true, nil
			}
		}
		return false, nil
	})
}
