package sidecarset

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// revisionData is what a SidecarSet's ControllerRevision records: everything it injects
// into a pod, as v1beta1 JSON (optional fields omitted, so old revisions stay readable).
type revisionData struct {
	Spec revisionSpec `json:"spec"`
}

type revisionSpec struct {
	InitContainers   []v1beta1.SidecarContainer           `json:"initContainers,omitempty"`
	Containers       []v1beta1.SidecarContainer           `json:"containers,omitempty"`
	Volumes          []corev1.Volume                      `json:"volumes,omitempty"`
	ImagePullSecrets []corev1.LocalObjectReference        `json:"imagePullSecrets,omitempty"`
	PatchPodMetadata []v1beta1.SidecarSetPatchPodMetadata `json:"patchPodMetadata,omitempty"`
}

// EncodeRevision returns the data of a revision of v.
func EncodeRevision(v *v1beta1.SidecarSet) ([]byte, error) {
	return json.Marshal(revisionData{Spec: revisionSpec{
		InitContainers:   v.Spec.InitContainers,
		Containers:       v.Spec.Containers,
		Volumes:          v.Spec.Volumes,
		ImagePullSecrets: v.Spec.ImagePullSecrets,
		PatchPodMetadata: v.Spec.PatchPodMetadata,
	}})
}

// WithRevision returns a copy of ss that injects what rev recorded instead of its
// current sidecars (injectionStrategy.revision).
func WithRevision(ss *apps.SidecarSet, rev *appsv1.ControllerRevision) (*apps.SidecarSet, error) {
	var d revisionData
	if err := json.Unmarshal(rev.Data.Raw, &d); err != nil {
		return nil, fmt.Errorf("reading revision %s: %w", rev.Name, err)
	}
	out := ss.DeepCopy()
	// What the pod records as the revision it got.
	out.Status.LatestRevision = rev.Name
	var err error
	if out.Spec.InitContainers, err = hubSidecars(d.Spec.InitContainers); err != nil {
		return nil, err
	}
	if out.Spec.Containers, err = hubSidecars(d.Spec.Containers); err != nil {
		return nil, err
	}
	out.Spec.Volumes = d.Spec.Volumes
	out.Spec.ImagePullSecrets = d.Spec.ImagePullSecrets
	out.Spec.PatchPodMetadata = nil
	for i := range d.Spec.PatchPodMetadata {
		var p apps.SidecarSetPatchPodMetadata
		if err := v1beta1.Convert_v1beta1_SidecarSetPatchPodMetadata_To_apps_SidecarSetPatchPodMetadata(&d.Spec.PatchPodMetadata[i], &p, nil); err != nil {
			return nil, err
		}
		out.Spec.PatchPodMetadata = append(out.Spec.PatchPodMetadata, p)
	}
	return out, nil
}

func hubSidecars(in []v1beta1.SidecarContainer) ([]apps.SidecarContainer, error) {
	var out []apps.SidecarContainer
	for i := range in {
		var c apps.SidecarContainer
		if err := v1beta1.Convert_v1beta1_SidecarContainer_To_apps_SidecarContainer(&in[i], &c, nil); err != nil {
			return nil, fmt.Errorf("converting sidecar %s: %w", in[i].Name, err)
		}
		out = append(out, c)
	}
	return out, nil
}
