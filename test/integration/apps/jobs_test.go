package apps

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The documented BroadcastJob and AdvancedCronJob manifests apply unchanged, are stored
// with OpenKruise's defaults, read back as v1beta1, and print OpenKruise's columns
// under their short names. (Their controllers are not there yet: this is the API.)
func TestJobExamples(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)

	bcjFile := filepath.Join(examplesDir(t), "broadcastjob.yaml")
	if out := kubectl(t, "apply", "-f", bcjFile); !strings.Contains(out, "broadcastjob.apps.kruise.io/bcj-demo") {
		t.Fatalf("kubectl apply -f broadcastjob.yaml printed %q", out)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "--ignore-not-found", "-f", bcjFile) })
	if out := kubectl(t, "apply", "-n", ns, "-f", filepath.Join(examplesDir(t), "advancedcronjob.yaml")); !strings.Contains(out, "advancedcronjob.apps.kruise.io/acj-test") {
		t.Fatalf("kubectl apply -f advancedcronjob.yaml printed %q", out)
	}

	bcj, err := kruiseClient(t).AppsV1beta1().BroadcastJobs("default").Get(ctx, "bcj-demo", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if bcj.Spec.CompletionPolicy.Type != "Always" || bcj.Spec.FailurePolicy.Type != "FailFast" ||
		bcj.Spec.Parallelism == nil || bcj.Spec.Template.Spec.DNSPolicy != "ClusterFirst" {
		t.Errorf("v1beta1 bcj-demo not stored with OpenKruise's defaults: %+v", bcj.Spec)
	}
	acj, err := kruiseClient(t).AppsV1beta1().AdvancedCronJobs(ns).Get(ctx, "acj-test", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if acj.Spec.ConcurrencyPolicy != "Allow" || acj.Spec.Paused == nil || *acj.Spec.Paused ||
		acj.Spec.SuccessfulJobsHistoryLimit == nil || *acj.Spec.SuccessfulJobsHistoryLimit != 3 ||
		acj.Spec.Template.BroadcastJobTemplate == nil {
		t.Errorf("v1beta1 acj-test not stored with OpenKruise's defaults: %+v", acj.Spec)
	}

	for _, tc := range []struct {
		args    []string
		columns []string
	}{
		{[]string{"get", "bcj", "-n", "default", "bcj-demo"}, []string{"NAME", "DESIRED", "ACTIVE", "SUCCEEDED", "FAILED", "AGE"}},
		{[]string{"get", "acj", "-n", ns, "acj-test"}, []string{"NAME", "SCHEDULE", "TYPE", "LASTSCHEDULETIME", "AGE"}},
	} {
		out := kubectl(t, tc.args...)
		if header := strings.Fields(strings.SplitN(out, "\n", 2)[0]); strings.Join(header, " ") != strings.Join(tc.columns, " ") {
			t.Errorf("kubectl %s header = %v, want %v", strings.Join(tc.args, " "), header, tc.columns)
		}
	}
}

// Bad job input is refused with the field that is wrong, and nothing is stored.
func TestJobBadInput(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const bcj = `apiVersion: apps.kruise.io/v1alpha1
kind: BroadcastJob
metadata: {name: bad}
spec:
  PARALLELISM
  template:
    spec:
      restartPolicy: RESTART
      containers: [{name: c, image: busybox}]
`
	const acj = `apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: bad}
spec:
  schedule: "SCHEDULE"
  TIMEZONE
  template:
    broadcastJobTemplate:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: busybox}]
`
	cases := []struct {
		name, manifest, resource, field string
	}{
		{"restartPolicy Always on a BroadcastJob", strings.NewReplacer("PARALLELISM", "", "RESTART", "Always").Replace(bcj), "broadcastjobs", "spec.template.spec.restartPolicy"},
		{"negative parallelism", strings.NewReplacer("PARALLELISM", "parallelism: -1", "RESTART", "Never").Replace(bcj), "broadcastjobs", "spec.parallelism"},
		{"bad schedule", strings.NewReplacer("SCHEDULE", "61 * * * *", "TIMEZONE", "").Replace(acj), "advancedcronjobs", "spec.schedule"},
		{"unknown time zone", strings.NewReplacer("SCHEDULE", "*/1 * * * *", "TIMEZONE", "timeZone: Mars/Olympus_Mons").Replace(acj), "advancedcronjobs", "spec.timeZone"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := kubectlStdin(t, tc.manifest, "apply", "-n", ns, "-f", "-")
			if err == nil {
				t.Fatalf("accepted: %s", out)
			}
			if !strings.Contains(err.Error(), tc.field) || !strings.Contains(err.Error(), "Invalid") && !strings.Contains(err.Error(), "invalid") {
				t.Errorf("error %q does not name %s as invalid", err, tc.field)
			}
			var getErr error
			switch tc.resource {
			case "broadcastjobs":
				_, getErr = kruiseClient(t).AppsV1alpha1().BroadcastJobs(ns).Get(context.Background(), "bad", metav1.GetOptions{})
			default:
				_, getErr = kruiseClient(t).AppsV1alpha1().AdvancedCronJobs(ns).Get(context.Background(), "bad", metav1.GetOptions{})
			}
			if !apierrors.IsNotFound(getErr) {
				t.Errorf("refused object was stored: get = %v", getErr)
			}
		})
	}
}
