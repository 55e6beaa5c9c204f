package sidecarsetconflict

import (
	"context"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's rules across SidecarSets, in
// pkg/webhook/sidecarset/validating/sidecarset_create_update_handler.go
// (validateSidecarConflict): two SidecarSets that can select one pod may not both
// inject a container or init container of one name, a volume of one name defined two
// ways, or an annotation one of them overwrites. TestConflicts and TestUpdates cover
// the overlap of namespaces and selectors those rules apply under.
func TestUpstreamRules(t *testing.T) {
	const f = "sidecarset/validating/sidecarset_create_update_handler.go:validateSidecarConflict: "
	initOnly := func(name, app, container string) *apps.SidecarSet {
		ss := sidecarSet(name, app)
		ss.Spec.InitContainers = sidecarSet("", "", container).Spec.Containers
		return ss
	}
	for _, tc := range []struct {
		rule     string
		existing *apps.SidecarSet
		ss       *apps.SidecarSet
		field    string
	}{
		{rule: f + "containers of one name", existing: sidecarSet("logs", "nginx", "sidecar1"),
			ss: sidecarSet("more-logs", "nginx", "sidecar1"), field: "spec.containers[0].name"},
		{rule: f + "init containers of one name", existing: initOnly("init", "nginx", "setup"),
			ss: initOnly("more-init", "nginx", "setup"), field: "spec.initContainers[0].name"},
		{rule: f + "volumes of one name defined two ways", existing: withVolumes(sidecarSet("logs", "nginx", "a"), emptyDir("log")),
			ss: withVolumes(sidecarSet("more-logs", "nginx", "b"), hostPath("log", "/var/log")), field: "spec.volumes[0]"},
		{rule: f + "an annotation another overwrites", existing: withAnnotation(sidecarSet("logs", "nginx", "a"), "oom", apps.SidecarSetOverwritePatchPolicy),
			ss: withAnnotation(sidecarSet("mesh", "nginx", "b"), "oom", apps.SidecarSetRetainPatchPolicy), field: "spec.patchPodMetadata[0].annotations[oom]"},
		{rule: f + "an annotation this one overwrites", existing: withAnnotation(sidecarSet("logs", "nginx", "a"), "oom", apps.SidecarSetRetainPatchPolicy),
			ss: withAnnotation(sidecarSet("mesh", "nginx", "b"), "oom", apps.SidecarSetOverwritePatchPolicy), field: "spec.patchPodMetadata[0].annotations[oom]"},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			p := newPlugin(t, nil, tc.existing)
			expectRejected(t, p.Validate(context.Background(), attrs(tc.ss, nil, ""), nil), tc.existing.Name, tc.field)
		})
	}
}
