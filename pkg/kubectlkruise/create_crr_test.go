package kubectlkruise

import (
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// The request names the chosen containers (all of the pod's by default) with
// upstream's default strategy; an unknown container or policy fails.
func TestBuildContainerRecreateRequest(t *testing.T) {
	pod := sidecarPod(nil, "main", "log-agent")
	defaults := func() *CreateCRROptions {
		return &CreateCRROptions{FailurePolicy: "Fail", UnreadyGracePeriodSeconds: 3,
			Strategy: v1alpha1.ContainerRecreateRequestStrategy{MinStartedSeconds: 3}, ActiveDeadlineSeconds: 300, TTLSecondsAfterFinished: 1800}
	}
	for _, tc := range []struct {
		name    string
		edit    func(*CreateCRROptions)
		want    []string
		wantErr string
	}{
		{name: "all containers by default", edit: func(*CreateCRROptions) {}, want: []string{"main", "log-agent"}},
		{name: "chosen containers", edit: func(o *CreateCRROptions) { o.Containers = []string{"log-agent"} }, want: []string{"log-agent"}},
		{name: "unknown container", edit: func(o *CreateCRROptions) { o.Containers = []string{"nosuch"} }, wantErr: "container nosuch is not valid for pod p out of: main, log-agent"},
		{name: "bad policy", edit: func(o *CreateCRROptions) { o.FailurePolicy = "Retry" }, wantErr: `--failure-policy must be Fail or Ignore, not "Retry"`},
		{name: "grace period", edit: func(o *CreateCRROptions) { o.TerminationGracePeriodSeconds = 30 }, want: []string{"main", "log-agent"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := defaults()
			tc.edit(o)
			crr, err := o.build("r", pod)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range crr.Spec.Containers {
				got = append(got, c.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("containers = %v, want %v", got, tc.want)
			}
			s := crr.Spec.Strategy
			if crr.Spec.PodName != "p" || crr.Namespace != testNS || s.FailurePolicy != "Fail" || *s.UnreadyGracePeriodSeconds != 3 || s.MinStartedSeconds != 3 ||
				*crr.Spec.ActiveDeadlineSeconds != 300 || *crr.Spec.TTLSecondsAfterFinished != 1800 {
				t.Errorf("request = %+v, strategy %+v", crr.Spec, s)
			}
			if (s.TerminationGracePeriodSeconds != nil) != (o.TerminationGracePeriodSeconds > 0) {
				t.Errorf("terminationGracePeriodSeconds = %v", s.TerminationGracePeriodSeconds)
			}
		})
	}
}
