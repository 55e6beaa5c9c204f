package features

import (
	"strings"
	"testing"

	"k8s.io/component-base/featuregate"
)

// upstream is OpenKruise v1.9's pkg/features/kruise_features.go (defaults and stages),
// plus DaemonSetPruneIneligibleNodes from its master branch, written out here so that a
// change to the registry that drifts from upstream shows in review.
var upstream = map[string]featuregate.FeatureSpec{
	"PodWebhook":        beta(true),
	"KruiseDaemon":      beta(true),
	"DaemonWatchingPod": beta(true),

	"CloneSetShortHash":                         alpha(false),
	"KruisePodReadinessGate":                    alpha(false),
	"PreDownloadImageForInPlaceUpdate":          alpha(false),
	"CloneSetPartitionRollback":                 alpha(false),
	"ResourcesDeletionProtection":               beta(true),
	"WorkloadSpread":                            beta(true),
	"PodUnavailableBudgetDeleteGate":            beta(true),
	"PodUnavailableBudgetUpdateGate":            alpha(false),
	"TemplateNoDefaults":                        alpha(false),
	"InPlaceUpdateEnvFromMetadata":              beta(true),
	"StatefulSetAutoDeletePVC":                  beta(true),
	"SidecarSetPatchPodMetadataDefaultsAllowed": alpha(false),
	"SidecarTerminator":                         alpha(false),
	"PodProbeMarkerGate":                        beta(true),
	"PreDownloadImageForDaemonSetUpdate":        alpha(false),

	"CloneSetEventHandlerOptimization":      alpha(false),
	"PreparingUpdateAsUpdate":               alpha(false),
	"ImagePullJobGate":                      alpha(false),
	"ResourceDistributionGate":              alpha(false),
	"DeletionProtectionForCRDCascadingGate": alpha(false),

	"EnhancedLivenessProbe":                  alpha(false),
	"RecreatePodWhenChangeVCTInCloneSetGate": alpha(false),
	"StatefulSetStartOrdinal":                alpha(false),
	"PodIndexLabel":                          beta(true),
	"EnableExternalCerts":                    alpha(false),
	"StatefulSetAutoResizePVCGate":           alpha(false),
	"ForceDeleteTimeoutExpectationGate":      alpha(false),
	"InPlaceWorkloadVerticalScaling":         alpha(false),
	"EnablePodProbeMarkerOnServerless":       alpha(false),

	"DaemonSetPruneIneligibleNodes": alpha(false),
}

// TestRegistry: every upstream name is known with upstream's default and stage; the
// default here differs only with a reason; a gate's default here is a state it
// supports; and a fresh gate (what kruise-controller and kruise-node-daemon parse
// --feature-gates with) has those defaults and passes Validate.
func TestRegistry(t *testing.T) {
	if len(Gates) != len(upstream) {
		t.Errorf("registry has %d gates, upstream %d", len(Gates), len(upstream))
	}
	g := NewGate()
	for name, want := range upstream {
		t.Run(name, func(t *testing.T) {
			gate, ok := Gates[featuregate.Feature(name)]
			if !ok {
				t.Fatalf("upstream gate %s is not in the registry", name)
			}
			if gate.Upstream != want {
				t.Errorf("upstream spec = %+v, want %+v", gate.Upstream, want)
			}
			if gate.Default != want.Default && gate.Why == "" {
				t.Errorf("default %v differs from upstream's %v without a reason", gate.Default, want.Default)
			}
			if gate.Support != Switchable && gate.Why == "" {
				t.Errorf("%s without a reason", gate.Support)
			}
			switch {
			case gate.Support == Missing && gate.Default:
				t.Errorf("not implemented but on by default")
			case gate.Support == AlwaysOn && !gate.Default:
				t.Errorf("always on but off by default")
			}
			if got := g.Enabled(featuregate.Feature(name)); got != gate.Default {
				t.Errorf("a new gate has %s=%v, want the default %v", name, got, gate.Default)
			}
		})
	}
	if err := Validate(g); err != nil {
		t.Errorf("the defaults do not validate: %v", err)
	}
}

// TestValidate: the states that cannot be honoured are refused with the gate's name and
// reason, the others pass.
func TestValidate(t *testing.T) {
	tests := []struct {
		flag    string
		refused []string // substrings of the error; none: accepted
	}{
		{flag: ""},
		{flag: "KruisePodReadinessGate=false"},
		{flag: "PodUnavailableBudgetUpdateGate=false,PodUnavailableBudgetDeleteGate=false"},
		{flag: "ImagePullJobGate=false,ResourceDistributionGate=false"},
		{flag: "PreDownloadImageForInPlaceUpdate=true,PreDownloadImageForDaemonSetUpdate=true"},
		{flag: "CloneSetShortHash=false,TemplateNoDefaults=false"},
		{flag: "StatefulSetStartOrdinal=true,PodWebhook=true"},
		{flag: "CloneSetShortHash=true", refused: []string{"CloneSetShortHash=true is not supported", "controller-revision-hash"}},
		{flag: "InPlaceWorkloadVerticalScaling=true"},
		{flag: "EnhancedLivenessProbe=true,EnableExternalCerts=true",
			refused: []string{"EnhancedLivenessProbe=true", "EnableExternalCerts=true", "certificates.mode"}},
		{flag: "PodWebhook=false", refused: []string{"PodWebhook=false is not supported", "always on"}},
		{flag: "ResourcesDeletionProtection=false", refused: []string{"ResourcesDeletionProtection=false"}},
		{flag: "ImagePullJobGate=false,PreDownloadImageForInPlaceUpdate=true",
			refused: []string{"PreDownloadImageForInPlaceUpdate=true needs ImagePullJobGate=true"}},
		// AllAlpha turns on every alpha gate, the unbuilt ones too; naming them off
		// again is accepted.
		{flag: "AllAlpha=true", refused: []string{"CloneSetShortHash=true", "add CloneSetShortHash=false"}},
		{flag: "AllAlpha=true,CloneSetShortHash=false,CloneSetPartitionRollback=false,TemplateNoDefaults=false," +
			"SidecarTerminator=false,CloneSetEventHandlerOptimization=false,PreparingUpdateAsUpdate=false," +
			"EnhancedLivenessProbe=false,RecreatePodWhenChangeVCTInCloneSetGate=false,EnableExternalCerts=false," +
			"InPlaceWorkloadVerticalScaling=false,EnablePodProbeMarkerOnServerless=false"},
		{flag: "AllBeta=false", refused: []string{"KruiseDaemon=false", "PodProbeMarkerGate=false"}},
	}
	for _, tt := range tests {
		t.Run(tt.flag, func(t *testing.T) {
			g := NewGate()
			if err := g.Set(tt.flag); err != nil {
				t.Fatalf("the flag does not parse: %v", err)
			}
			err := Validate(g)
			if len(tt.refused) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range tt.refused {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}

// TestUnknownGate: a name OpenKruise does not have is still an error of the flag itself.
func TestUnknownGate(t *testing.T) {
	if err := NewGate().Set("NoSuchGate=true"); err == nil {
		t.Fatal("an unknown gate was accepted")
	}
}
