// Package fuzzer holds the fuzz functions that keep random apps.kruise.io objects
// within what the hub can represent, for round-trip tests of every version.
package fuzzer

import (
	"k8s.io/apimachinery/pkg/runtime"
	runtimeserializer "k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"sigs.k8s.io/randfill"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// Funcs returns the fuzz functions for apps.kruise.io.
var Funcs = func(runtimeserializer.CodecFactory) []interface{} {
	defaulter := newDefaulter()
	return []interface{}{
		func(cs *apps.CloneSet, c randfill.Continue) {
			c.FillNoCustom(cs)
			// "RollingUpdate" is v1beta1's rollout type; the hub never holds it.
			if cs.Spec.UpdateStrategy.Type == "RollingUpdate" {
				cs.Spec.UpdateStrategy.Type = apps.RecreateCloneSetUpdateStrategyType
			}
			// v1alpha1 carries excludePreparingDelete as a label, so the hub field and the
			// label must agree for an object to survive a trip through v1alpha1.
			exclude := c.Bool()
			cs.Spec.ScaleStrategy.ExcludePreparingDelete = exclude
			if exclude {
				if cs.Labels == nil {
					cs.Labels = map[string]string{}
				}
				cs.Labels[v1alpha1.ScalingExcludePreparingDeleteKey] = "true"
			} else {
				delete(cs.Labels, v1alpha1.ScalingExcludePreparingDeleteKey)
			}
			defaulter.apply(cs, &v1beta1.CloneSet{})
		},
		func(ss *apps.StatefulSet, c randfill.Continue) {
			c.FillNoCustom(ss)
			defaulter.apply(ss, &v1beta1.StatefulSet{})
		},
		func(ds *apps.DaemonSet, c randfill.Continue) {
			c.FillNoCustom(ds)
			// v1alpha1 carries partitioned scaling as an annotation and cannot tell an
			// unset scale strategy from a false one: the hub holds either nil or true,
			// and the annotation agrees with it.
			if c.Bool() {
				ds.Spec.ScaleStrategy = &apps.DaemonSetScaleStrategy{PartitionedScaling: true}
				if ds.Annotations == nil {
					ds.Annotations = map[string]string{}
				}
				ds.Annotations[v1alpha1.ProgressiveCreatePodAnnotation] = "true"
			} else {
				ds.Spec.ScaleStrategy = nil
				delete(ds.Annotations, v1alpha1.ProgressiveCreatePodAnnotation)
			}
			defaulter.apply(ds, &v1beta1.DaemonSet{})
		},
		func(j *apps.BroadcastJob, c randfill.Continue) {
			c.FillNoCustom(j)
			defaulter.apply(j, &v1beta1.BroadcastJob{})
		},
		func(j *apps.AdvancedCronJob, c randfill.Continue) {
			c.FillNoCustom(j)
			defaulter.apply(j, &v1beta1.AdvancedCronJob{})
		},
		func(ud *apps.UnitedDeployment, c randfill.Continue) {
			c.FillNoCustom(ud)
			// A subset's patch is JSON the server keeps as sent: random bytes are not.
			for i := range ud.Spec.Topology.Subsets {
				ud.Spec.Topology.Subsets[i].Patch = runtime.RawExtension{}
				if c.Bool() {
					ud.Spec.Topology.Subsets[i].Patch.Raw = []byte(`{"metadata":{"labels":{"pool":"spot"}}}`)
				}
			}
			// The CloneSet template follows the CloneSet's own rules: no v1beta1-only
			// rollout type in the hub, and excludePreparingDelete (a label of the
			// CloneSet in v1alpha1, which a template does not carry) left unset.
			if t := ud.Spec.Template.CloneSetTemplate; t != nil {
				if t.Spec.UpdateStrategy.Type == "RollingUpdate" {
					t.Spec.UpdateStrategy.Type = apps.RecreateCloneSetUpdateStrategyType
				}
				t.Spec.ScaleStrategy.ExcludePreparingDelete = false
			}
			defaulter.apply(ud, &v1beta1.UnitedDeployment{})
		},
		func(ss *apps.SidecarSet, c randfill.Continue) {
			c.FillNoCustom(ss)
			defaulter.apply(ss, &v1beta1.SidecarSet{})
		},
		func(ni *apps.NodeImage, c randfill.Continue) {
			c.FillNoCustom(ni)
			// v1alpha1 keeps waiting and per-tag pullSecrets in an annotation; a user's
			// annotation of that name is not the hub's to hold.
			delete(ni.Annotations, v1alpha1.NodeImageV1beta1FieldsAnnotation)
			// ...and keys the tags' secrets by tag name, which validation keeps unique.
			for name, img := range ni.Spec.Images {
				seen := map[string]bool{}
				tags := img.Tags[:0]
				for _, t := range img.Tags {
					if !seen[t.Tag] {
						seen[t.Tag] = true
						tags = append(tags, t)
					}
				}
				img.Tags = tags
				ni.Spec.Images[name] = img
			}
			defaulter.apply(ni, &v1beta1.NodeImage{})
		},
		func(j *apps.ImagePullJob, c randfill.Continue) {
			c.FillNoCustom(j)
			defaulter.apply(j, &v1beta1.ImagePullJob{})
		},
		func(j *apps.ImageListPullJob, c randfill.Continue) {
			c.FillNoCustom(j)
			defaulter.apply(j, &v1beta1.ImageListPullJob{})
		},
		func(crr *apps.ContainerRecreateRequest, c randfill.Continue) {
			c.FillNoCustom(crr)
			defaulter.apply(crr, &v1beta1.ContainerRecreateRequest{})
		},
		func(ppm *apps.PodProbeMarker, c randfill.Continue) {
			c.FillNoCustom(ppm)
			defaulter.apply(ppm, &v1beta1.PodProbeMarker{})
		},
		func(npp *apps.NodePodProbe, c randfill.Continue) {
			c.FillNoCustom(npp)
			// v1beta1 keeps the pods' IPs in an annotation; a user's annotation of that
			// name is not the hub's to hold.
			delete(npp.Annotations, v1beta1.NodePodProbePodIPsAnnotation)
			defaulter.apply(npp, &v1beta1.NodePodProbe{})
		},
		func(ej *apps.EphemeralJob, c randfill.Continue) {
			c.FillNoCustom(ej)
			defaulter.apply(ej, &v1beta1.EphemeralJob{})
		},
		func(pps *apps.PersistentPodState, c randfill.Continue) {
			c.FillNoCustom(pps)
			// The lists and maps are omitempty: JSON cannot tell empty from unset.
			if len(pps.Spec.PersistentPodAnnotations) == 0 {
				pps.Spec.PersistentPodAnnotations = nil
			}
			if len(pps.Spec.PreferredPersistentTopology) == 0 {
				pps.Spec.PreferredPersistentTopology = nil
			}
			if len(pps.Status.PodStates) == 0 {
				pps.Status.PodStates = nil
			}
			for name, st := range pps.Status.PodStates {
				if len(st.NodeTopologyLabels) == 0 {
					st.NodeTopologyLabels = nil
				}
				if len(st.Annotations) == 0 {
					st.Annotations = nil
				}
				pps.Status.PodStates[name] = st
			}
			defaulter.apply(pps, &v1beta1.PersistentPodState{})
		},
		func(ws *apps.WorkloadSpread, c randfill.Continue) {
			c.FillNoCustom(ws)
			// subsetStatuses and the per-subset maps and lists are omitempty: JSON cannot
			// tell empty from unset, and the hub holds nil.
			if len(ws.Status.SubsetStatuses) == 0 {
				ws.Status.SubsetStatuses = nil
			}
			for i := range ws.Status.SubsetStatuses {
				s := &ws.Status.SubsetStatuses[i]
				if len(s.CreatingPods) == 0 {
					s.CreatingPods = nil
				}
				if len(s.DeletingPods) == 0 {
					s.DeletingPods = nil
				}
				if len(s.Conditions) == 0 {
					s.Conditions = nil
				}
			}
			for i := range ws.Spec.Subsets {
				s := &ws.Spec.Subsets[i]
				if len(s.PreferredNodeSelectorTerms) == 0 {
					s.PreferredNodeSelectorTerms = nil
				}
				if len(s.Tolerations) == 0 {
					s.Tolerations = nil
				}
			}
			defaulter.apply(ws, &v1beta1.WorkloadSpread{})
		},
	}
}

// defaulter applies the versioned defaults to a hub object. Decoding always defaults,
// so round-trip tests compare defaulted objects, as every stored object is.
type defaulter struct {
	scheme *runtime.Scheme
}

func newDefaulter() defaulter {
	s := runtime.NewScheme()
	utilruntime.Must(apps.AddToScheme(s))
	utilruntime.Must(v1beta1.AddToScheme(s))
	utilruntime.Must(v1alpha1.AddToScheme(s))
	return defaulter{scheme: s}
}

func (d defaulter) apply(hub runtime.Object, versioned runtime.Object) {
	utilruntime.Must(d.scheme.Convert(hub, versioned, nil))
	d.scheme.Default(versioned)
	utilruntime.Must(d.scheme.Convert(versioned, hub, nil))
}
