package v1alpha1

import (
	"k8s.io/apimachinery/pkg/conversion"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/annotationfield"
)

// NodeImageV1beta1FieldsAnnotation carries what v1alpha1's NodeImage has no field
// for: v1beta1's status.waiting and per-tag pullSecrets. OpenKruise drops them when it
// converts to v1alpha1; this server keeps them, so an object read and written back
// through v1alpha1 (by an older client or the old node daemon) loses nothing.
const NodeImageV1beta1FieldsAnnotation = apps.NodeImageV1beta1FieldsAnnotation

// nodeImageV1beta1Fields is the annotation's JSON.
type nodeImageV1beta1Fields struct {
	Waiting int32 `json:"waiting,omitempty"`
	// TagPullSecrets are the tags' own pull secrets by image and tag name. Names, not
	// positions: v1alpha1 writers (the controllers that add and prune tags) change the
	// tag list, and the secrets must stay with their tag.
	TagPullSecrets map[string]map[string][]ReferenceObject `json:"tagPullSecrets,omitempty"`
}

// Convert_apps_ImageTagSpec_To_v1alpha1_ImageTagSpec leaves out the tag's pullSecrets;
// Convert_apps_NodeImage_To_v1alpha1_NodeImage keeps them in the annotation.
func Convert_apps_ImageTagSpec_To_v1alpha1_ImageTagSpec(in *apps.ImageTagSpec, out *ImageTagSpec, s conversion.Scope) error {
	return autoConvert_apps_ImageTagSpec_To_v1alpha1_ImageTagSpec(in, out, s)
}

// Convert_apps_NodeImageStatus_To_v1alpha1_NodeImageStatus leaves out waiting (kept in
// the annotation by the object conversion).
func Convert_apps_NodeImageStatus_To_v1alpha1_NodeImageStatus(in *apps.NodeImageStatus, out *NodeImageStatus, s conversion.Scope) error {
	return autoConvert_apps_NodeImageStatus_To_v1alpha1_NodeImageStatus(in, out, s)
}

// Convert_apps_NodeImage_To_v1alpha1_NodeImage writes the v1beta1-only fields into
// the annotation, only when one is set.
func Convert_apps_NodeImage_To_v1alpha1_NodeImage(in *apps.NodeImage, out *NodeImage, s conversion.Scope) error {
	if err := autoConvert_apps_NodeImage_To_v1alpha1_NodeImage(in, out, s); err != nil {
		return err
	}
	extra := nodeImageV1beta1Fields{Waiting: in.Status.Waiting}
	for name, img := range in.Spec.Images {
		for _, tag := range img.Tags {
			if len(tag.PullSecrets) == 0 {
				continue
			}
			refs := make([]ReferenceObject, len(tag.PullSecrets))
			for j, r := range tag.PullSecrets {
				refs[j] = ReferenceObject{Namespace: r.Namespace, Name: r.Name}
			}
			if extra.TagPullSecrets == nil {
				extra.TagPullSecrets = map[string]map[string][]ReferenceObject{}
			}
			if extra.TagPullSecrets[name] == nil {
				extra.TagPullSecrets[name] = map[string][]ReferenceObject{}
			}
			extra.TagPullSecrets[name][tag.Tag] = refs
		}
	}
	if extra.Waiting == 0 && extra.TagPullSecrets == nil {
		return nil
	}
	annotations, err := annotationfield.SetJSON(out.Annotations, NodeImageV1beta1FieldsAnnotation, extra)
	if err != nil {
		return err
	}
	out.Annotations = annotations
	return nil
}

// Convert_v1alpha1_NodeImage_To_apps_NodeImage reads the annotation back into the
// hub's fields and drops it; secrets of tags the spec no longer has go with them. An
// annotation that does not parse is an error: keeping it would store a key the server
// owns, and dropping it would lose the fields silently.
func Convert_v1alpha1_NodeImage_To_apps_NodeImage(in *NodeImage, out *apps.NodeImage, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_NodeImage_To_apps_NodeImage(in, out, s); err != nil {
		return err
	}
	var extra nodeImageV1beta1Fields
	if ok, err := annotationfield.GetJSON(in.Annotations, NodeImageV1beta1FieldsAnnotation, apps.Kind("NodeImage"), in.Name, &extra); !ok || err != nil {
		// A value that does not parse is refused: keeping it would store a key the
		// server owns, and dropping it would lose the fields silently.
		return err
	}
	out.Status.Waiting = extra.Waiting
	for name, byTag := range extra.TagPullSecrets {
		img, ok := out.Spec.Images[name]
		if !ok {
			continue
		}
		// The generated conversion may share the tag slice with in: write a copy.
		tags := make([]apps.ImageTagSpec, len(img.Tags))
		copy(tags, img.Tags)
		for i := range tags {
			refs, ok := byTag[tags[i].Tag]
			if !ok {
				continue
			}
			tags[i].PullSecrets = make([]apps.ReferenceObject, len(refs))
			for j, r := range refs {
				tags[i].PullSecrets[j] = apps.ReferenceObject{Namespace: r.Namespace, Name: r.Name}
			}
		}
		img.Tags = tags
		out.Spec.Images[name] = img
	}
	out.Annotations = annotationfield.Without(in.Annotations, NodeImageV1beta1FieldsAnnotation)
	return nil
}
