package advancedcronjob

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Bad input is refused with the field that is wrong, and nothing is stored.
func TestBadInputIsRefusedAtItsField(t *testing.T) {
	t.Parallel()
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const jobTemplate = `
    jobTemplate:
      spec:
        template:
          spec:
            restartPolicy: RESTART
            containers: [{name: c, image: busybox}]`
	const broadcastTemplate = `
    broadcastJobTemplate:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: busybox}]`
	manifest := func(schedule, zone, templates string) string {
		return `apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: bad}
spec:
  schedule: "` + schedule + `"
  ` + zone + `
  template:` + templates + "\n"
	}
	cases := []struct{ name, manifest, field string }{
		{"invalid schedule", manifest("61 * * * *", "", broadcastTemplate), "spec.schedule"},
		{"unknown time zone", manifest("*/1 * * * *", "timeZone: Mars/Olympus_Mons", broadcastTemplate), "spec.timeZone"},
		{"restartPolicy Always in a job template", manifest("*/1 * * * *", "", strings.Replace(jobTemplate, "RESTART", "Always", 1)),
			"spec.template.jobTemplate.spec.template.spec.restartPolicy"},
		{"two templates at once", manifest("*/1 * * * *", "", strings.Replace(jobTemplate, "RESTART", "Never", 1)+broadcastTemplate),
			"spec.template"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.KubectlStdin(t, tc.manifest, "apply", "-n", ns, "-f", "-")
			if err == nil {
				t.Fatalf("accepted: %s", out)
			}
			if !strings.Contains(err.Error(), tc.field+":") || !strings.Contains(err.Error(), "is invalid") {
				t.Errorf("error %q does not name %s", err, tc.field)
			}
			_, getErr := kruiseClient(t).AppsV1alpha1().AdvancedCronJobs(ns).Get(context.Background(), "bad", metav1.GetOptions{})
			if !apierrors.IsNotFound(getErr) {
				t.Errorf("refused object was stored: get = %v", getErr)
			}
		})
	}
}
