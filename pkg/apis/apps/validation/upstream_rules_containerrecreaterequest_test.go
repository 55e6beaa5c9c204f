package validation

import (
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise refuses ContainerRecreateRequests in its mutating webhook
// (pkg/webhook/containerrecreaterequest/mutating) and, for PodUnavailableBudgets, in its
// validating one. The rules about the pod (it exists, runs, has the containers) are in
// pkg/admission/containerrecreaterequest; README "Other kinds" says which rules we do
// not match.
func TestUpstreamRulesContainerRecreateRequest(t *testing.T) {
	const f = "containerrecreaterequest/mutating/crr_mutating_handler.go:"
	strategy := func(mut func(*apps.ContainerRecreateRequestStrategy)) func(*apps.ContainerRecreateRequest) {
		return func(crr *apps.ContainerRecreateRequest) { mut(crr.Spec.Strategy) }
	}
	runUpstreamRules(t, upstreamKind[*apps.ContainerRecreateRequest]{
		kind: "ContainerRecreateRequest", valid: func() *apps.ContainerRecreateRequest { return newCRR(t) },
		validate: ValidateContainerRecreateRequest, validateUpdate: ValidateContainerRecreateRequestUpdate,
	}, []upstreamRule[*apps.ContainerRecreateRequest]{
		{rule: f + "Handle: podName required",
			mut: func(crr *apps.ContainerRecreateRequest) { crr.Spec.PodName = "" }, want: []wantErr{required("spec.podName")}},
		{rule: f + "Handle: containers required",
			mut: func(crr *apps.ContainerRecreateRequest) { crr.Spec.Containers = nil }, want: []wantErr{required("spec.containers")}},
		{rule: f + "Handle: activeDeadlineSeconds at least 3",
			mut:  func(crr *apps.ContainerRecreateRequest) { crr.Spec.ActiveDeadlineSeconds = new(int64(2)) },
			want: []wantErr{invalid("spec.activeDeadlineSeconds")}},
		{rule: f + "Handle: terminationGracePeriodSeconds not negative",
			mut:  strategy(func(s *apps.ContainerRecreateRequestStrategy) { s.TerminationGracePeriodSeconds = new(int64(-1)) }),
			want: []wantErr{invalid("spec.strategy.terminationGracePeriodSeconds")}},
		{rule: f + "Handle: unreadyGracePeriodSeconds not negative",
			mut:  strategy(func(s *apps.ContainerRecreateRequestStrategy) { s.UnreadyGracePeriodSeconds = new(int64(-1)) }),
			want: []wantErr{invalid("spec.strategy.unreadyGracePeriodSeconds")}},
		{rule: f + "Handle: failurePolicy Fail or Ignore",
			mut:  strategy(func(s *apps.ContainerRecreateRequestStrategy) { s.FailurePolicy = "Retry" }),
			want: []wantErr{notSupported("spec.strategy.failurePolicy")}},
		{rule: f + "injectPodIntoContainerRecreateRequest: a container at most once",
			mut:  func(crr *apps.ContainerRecreateRequest) { crr.Spec.Containers[1].Name = "app" },
			want: []wantErr{duplicate("spec.containers[1].name")}},
		{rule: f + "Handle: spec immutable", update: true,
			mut:  func(crr *apps.ContainerRecreateRequest) { crr.Spec.ActiveDeadlineSeconds = new(int64(60)) },
			want: []wantErr{forbidden("spec")}},
		{rule: f + "Handle: label crr.apps.kruise.io/pod-uid immutable", update: true,
			old:  func(crr *apps.ContainerRecreateRequest) { crr.Labels["crr.apps.kruise.io/pod-uid"] = "uid-1" },
			mut:  func(crr *apps.ContainerRecreateRequest) { crr.Labels["crr.apps.kruise.io/pod-uid"] = "uid-2" },
			want: []wantErr{forbidden("metadata.labels[crr.apps.kruise.io/pod-uid]")}},
		{rule: f + "Handle: label crr.apps.kruise.io/node-name immutable", update: true,
			mut:  func(crr *apps.ContainerRecreateRequest) { crr.Labels["crr.apps.kruise.io/node-name"] = "node-2" },
			want: []wantErr{forbidden("metadata.labels[crr.apps.kruise.io/node-name]")}},
		{rule: f + "Handle: annotation crr.apps.kruise.io/unready-acquired immutable once set", update: true,
			old: func(crr *apps.ContainerRecreateRequest) {
				crr.Annotations = map[string]string{"crr.apps.kruise.io/unready-acquired": "2026-01-01T00:00:00Z"}
			},
			mut: func(crr *apps.ContainerRecreateRequest) {
				delete(crr.Annotations, "crr.apps.kruise.io/unready-acquired")
			},
			want: []wantErr{forbidden("metadata.annotations[crr.apps.kruise.io/unready-acquired]")}},
	})
}
