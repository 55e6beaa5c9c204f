// Package features is the one registry of feature gates that kruise-apiserver,
// kruise-controller and kruise-node-daemon accept (--feature-gates): every gate name of
// OpenKruise v1.9 (its pkg/features), each with its default here and whether this
// implementation can honour both of its states. A gate is on or off the same way in
// every binary; each binary acts on the gates that concern it.
package features

import (
	"k8s.io/component-base/featuregate"
)

// The gates, with OpenKruise's names (two constants differ from their names upstream:
// EnhancedLivenessProbe and ForceDeleteTimeoutExpectationGate are the names users set).
const (
	KruiseDaemon                              featuregate.Feature = "KruiseDaemon"
	PodWebhook                                featuregate.Feature = "PodWebhook"
	DaemonWatchingPod                         featuregate.Feature = "DaemonWatchingPod"
	CloneSetShortHash                         featuregate.Feature = "CloneSetShortHash"
	KruisePodReadinessGate                    featuregate.Feature = "KruisePodReadinessGate"
	PreDownloadImageForInPlaceUpdate          featuregate.Feature = "PreDownloadImageForInPlaceUpdate"
	CloneSetPartitionRollback                 featuregate.Feature = "CloneSetPartitionRollback"
	ResourcesDeletionProtection               featuregate.Feature = "ResourcesDeletionProtection"
	PodUnavailableBudgetDeleteGate            featuregate.Feature = "PodUnavailableBudgetDeleteGate"
	PodUnavailableBudgetUpdateGate            featuregate.Feature = "PodUnavailableBudgetUpdateGate"
	WorkloadSpread                            featuregate.Feature = "WorkloadSpread"
	TemplateNoDefaults                        featuregate.Feature = "TemplateNoDefaults"
	InPlaceUpdateEnvFromMetadata              featuregate.Feature = "InPlaceUpdateEnvFromMetadata"
	StatefulSetAutoDeletePVC                  featuregate.Feature = "StatefulSetAutoDeletePVC"
	SidecarSetPatchPodMetadataDefaultsAllowed featuregate.Feature = "SidecarSetPatchPodMetadataDefaultsAllowed"
	SidecarTerminator                         featuregate.Feature = "SidecarTerminator"
	PodProbeMarkerGate                        featuregate.Feature = "PodProbeMarkerGate"
	PreDownloadImageForDaemonSetUpdate        featuregate.Feature = "PreDownloadImageForDaemonSetUpdate"
	CloneSetEventHandlerOptimization          featuregate.Feature = "CloneSetEventHandlerOptimization"
	PreparingUpdateAsUpdate                   featuregate.Feature = "PreparingUpdateAsUpdate"
	ImagePullJobGate                          featuregate.Feature = "ImagePullJobGate"
	ResourceDistributionGate                  featuregate.Feature = "ResourceDistributionGate"
	DeletionProtectionForCRDCascadingGate     featuregate.Feature = "DeletionProtectionForCRDCascadingGate"
	EnhancedLivenessProbe                     featuregate.Feature = "EnhancedLivenessProbe"
	RecreatePodWhenChangeVCTInCloneSetGate    featuregate.Feature = "RecreatePodWhenChangeVCTInCloneSetGate"
	StatefulSetStartOrdinal                   featuregate.Feature = "StatefulSetStartOrdinal"
	PodIndexLabel                             featuregate.Feature = "PodIndexLabel"
	EnableExternalCerts                       featuregate.Feature = "EnableExternalCerts"
	StatefulSetAutoResizePVCGate              featuregate.Feature = "StatefulSetAutoResizePVCGate"
	ForceDeleteTimeoutExpectationGate         featuregate.Feature = "ForceDeleteTimeoutExpectationGate"
	InPlaceWorkloadVerticalScaling            featuregate.Feature = "InPlaceWorkloadVerticalScaling"
	EnablePodProbeMarkerOnServerless          featuregate.Feature = "EnablePodProbeMarkerOnServerless"
	// DaemonSetPruneIneligibleNodes is on OpenKruise's master branch (after v1.9.0).
	DaemonSetPruneIneligibleNodes featuregate.Feature = "DaemonSetPruneIneligibleNodes"
)

// Support is how much of a gate's behaviour this implementation has.
type Support int

const (
	// Switchable: both states are honoured.
	Switchable Support = iota
	// AlwaysOn: the behaviour is built and cannot be turned off; false is refused.
	AlwaysOn
	// Missing: the behaviour is not built; true is refused.
	Missing
)

func (s Support) String() string {
	switch s {
	case Switchable:
		return "switchable"
	case AlwaysOn:
		return "always on"
	default:
		return "not implemented"
	}
}

// Gate is one gate of the registry.
type Gate struct {
	// Upstream is OpenKruise's default and stage.
	Upstream featuregate.FeatureSpec
	// Default is the default here.
	Default bool
	Support Support
	// Why explains a default that differs from upstream's, or a state that is refused;
	// the refusal quotes it.
	Why string
}

func alpha(def bool) featuregate.FeatureSpec {
	return featuregate.FeatureSpec{Default: def, PreRelease: featuregate.Alpha}
}

func beta(def bool) featuregate.FeatureSpec {
	return featuregate.FeatureSpec{Default: def, PreRelease: featuregate.Beta}
}

// objectAsks is the reason several gates that are off upstream are on here: each
// turns on what an object the user stored asks for, and a field accepted and then
// ignored is worse than a refusal.
const objectAsks = "on here: what it turns on is what a stored object asks for (fields, labels, a kind kruise-apiserver serves); "

// Gates is the registry: every OpenKruise gate name.
var Gates = map[featuregate.Feature]Gate{
	KruiseDaemon: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "kruise-node-daemon is part of every install (chart and kustomize base); ContainerRecreateRequest, ImagePullJob, NodeImage and PodProbeMarker need it"},
	PodWebhook: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "kruise-apiserver serves and registers its Pod webhook itself; narrow it with --pod-webhook-namespace-selector/--pod-webhook-object-selector (chart: podWebhook.*) instead"},
	DaemonWatchingPod: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "kruise-node-daemon always watches its node's pods (container recreation, env-from-metadata restarts, probes)"},
	CloneSetShortHash: {Upstream: alpha(false), Default: false, Support: Missing,
		Why: "pods always carry controller-revision-hash=<name>-<hash> (hence the 52-character CloneSet name limit)"},
	KruisePodReadinessGate: {Upstream: alpha(false), Default: true, Support: Switchable,
		Why: "names the injection itself here: on, pods of Kruise workloads get the KruisePodReady gate where it is used (lifecycle hooks with markPodNotReady; with kruise-apiserver --pod-webhook-readiness-gate, every CloneSet and Advanced StatefulSet pod), as OpenKruise's off state does; off, no pod gets it (such hooks then cannot take a pod out of endpoints). OpenKruise's on state (the gate on every pod in the cluster) is not built"},
	PreDownloadImageForInPlaceUpdate:   {Upstream: alpha(false), Default: false, Support: Switchable},
	PreDownloadImageForDaemonSetUpdate: {Upstream: alpha(false), Default: false, Support: Switchable},
	CloneSetPartitionRollback:          {Upstream: alpha(false), Default: false, Support: Switchable},
	ResourcesDeletionProtection: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "deletion protection is built into kruise-apiserver (its admission and deletion webhook); remove the policy.kruise.io/delete-protection label to let an object go"},
	PodUnavailableBudgetDeleteGate: {Upstream: beta(true), Default: true, Support: Switchable},
	PodUnavailableBudgetUpdateGate: {Upstream: alpha(false), Default: true, Support: Switchable,
		Why: objectAsks + "a PodUnavailableBudget guards in-place updates unless its protectOperations leave UPDATE out; off, kruise-apiserver lets every pod update through"},
	WorkloadSpread: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "WorkloadSpread placement is part of kruise-apiserver's Pod webhook and kruise-controller"},
	TemplateNoDefaults: {Upstream: alpha(false), Default: false, Support: Missing,
		Why: "kruise-apiserver always applies kube's defaults to pod and claim templates, as kube does for a Deployment's"},
	InPlaceUpdateEnvFromMetadata: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "env from labels/annotations changes are always applied in place (kruise-node-daemon restarts the container)"},
	StatefulSetAutoDeletePVC: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "Advanced StatefulSet always honours persistentVolumeClaimRetentionPolicy"},
	SidecarSetPatchPodMetadataDefaultsAllowed: {Upstream: alpha(false), Default: true, Support: AlwaysOn,
		Why: objectAsks + "a SidecarSet's patchPodMetadata may patch any annotation; OpenKruise's whitelist (the SidecarSet_PatchPodMetadata_WhiteList ConfigMap) is not built"},
	SidecarTerminator: {Upstream: alpha(false), Default: false, Support: Switchable},
	PodProbeMarkerGate: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "PodProbeMarker is served by kruise-apiserver and acted on by kruise-controller and kruise-node-daemon"},
	CloneSetEventHandlerOptimization: {Upstream: alpha(false), Default: false, Support: Missing,
		Why: "OpenKruise's CloneSet event-handler variant is not built"},
	PreparingUpdateAsUpdate: {Upstream: alpha(false), Default: false, Support: Switchable},
	ImagePullJobGate: {Upstream: alpha(false), Default: true, Support: Switchable,
		Why: objectAsks + "kruise-controller acts on ImagePullJobs and ImageListPullJobs; off, it does not (they stay as created), and image pre-download (which needs them) is refused"},
	ResourceDistributionGate: {Upstream: alpha(false), Default: true, Support: Switchable,
		Why: objectAsks + "kruise-controller distributes ResourceDistributions; off, it does not (no copies are written or updated)"},
	DeletionProtectionForCRDCascadingGate: {Upstream: alpha(false), Default: true, Support: AlwaysOn,
		Why: objectAsks + "a CRD labelled policy.kruise.io/delete-protection=Cascading cannot be deleted while it has objects"},
	EnhancedLivenessProbe: {Upstream: alpha(false), Default: false, Support: Missing,
		Why: "OpenKruise's enhanced liveness probe (kruise-daemon runs the liveness probes) is not built"},
	RecreatePodWhenChangeVCTInCloneSetGate: {Upstream: alpha(false), Default: false, Support: Switchable},
	StatefulSetStartOrdinal: {Upstream: alpha(false), Default: true, Support: AlwaysOn,
		Why: objectAsks + "an Advanced StatefulSet's ordinals.start always numbers its pods; turning it off would rename the pods of sets that use it"},
	PodIndexLabel: {Upstream: beta(true), Default: true, Support: AlwaysOn,
		Why: "Advanced StatefulSet pods always carry apps.kubernetes.io/pod-index, as kube's StatefulSet pods do"},
	EnableExternalCerts: {Upstream: alpha(false), Default: false, Support: Missing,
		Why: "certificates come from the chart's certificates.mode (helm, certManager, external) or the kustomize base's Secrets, not from a gate"},
	StatefulSetAutoResizePVCGate: {Upstream: alpha(false), Default: true, Support: AlwaysOn,
		Why: objectAsks + "volumeClaimUpdateStrategy OnPodRollingUpdate always resizes claims"},
	ForceDeleteTimeoutExpectationGate: {Upstream: alpha(false), Default: true, Support: AlwaysOn,
		Why: "kruise-controller's scale expectations always time out (5 minutes), so a lost watch event never stalls a workload"},
	InPlaceWorkloadVerticalScaling: {Upstream: alpha(false), Default: false, Support: Switchable},
	EnablePodProbeMarkerOnServerless: {Upstream: alpha(false), Default: false, Support: Missing,
		Why: "PodProbeMarker's serverless protocol is not built"},
	DaemonSetPruneIneligibleNodes: {Upstream: alpha(false), Default: true, Support: AlwaysOn,
		Why: "Advanced DaemonSet always deletes its pods on nodes that no longer match, as kube's DaemonSet does"},
}

// Specs are the gates as component-base wants them: our default, upstream's stage.
func Specs() map[featuregate.Feature]featuregate.FeatureSpec {
	out := make(map[featuregate.Feature]featuregate.FeatureSpec, len(Gates))
	for name, g := range Gates {
		out[name] = featuregate.FeatureSpec{Default: g.Default, PreRelease: g.Upstream.PreRelease}
	}
	return out
}

// AddTo registers every gate with g, skipping names g already knows (kruise-apiserver's
// gate carries kube's own gates, and PodIndexLabel is one of them: kube's spec then
// decides what the flag accepts, and the behaviour here is the same).
func AddTo(g featuregate.MutableFeatureGate) error {
	known := g.GetAll()
	specs := Specs()
	for name := range specs {
		if _, ok := known[name]; ok {
			delete(specs, name)
		}
	}
	return g.Add(specs)
}

// NewGate returns a gate that knows every Kruise gate (kruise-controller,
// kruise-node-daemon).
func NewGate() featuregate.MutableFeatureGate {
	g := featuregate.NewFeatureGate()
	if err := AddTo(g); err != nil {
		panic(err) // a static table that does not load is a programming error
	}
	return g
}

// Enabled reports whether f is on in g, or its default here when g is nil (unit tests
// that build a controller without gates).
func Enabled(g featuregate.FeatureGate, f featuregate.Feature) bool {
	if g == nil {
		return Gates[f].Default
	}
	return g.Enabled(f)
}
