package validation

import (
	"fmt"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// OpenKruise's pkg/webhook/nodeimage/validating, rule by rule; README "Other kinds" says
// which rules we do not match.
func TestUpstreamRulesNodeImage(t *testing.T) {
	const f = "nodeimage/validating/nodeimage_create_update_handler.go:validate: "
	tags := func(tags ...apps.ImageTagSpec) func(*apps.NodeImage) {
		return func(ni *apps.NodeImage) { ni.Spec.Images["ubuntu"] = apps.ImageSpec{Tags: tags} }
	}
	runUpstreamRules(t, upstreamKind[*apps.NodeImage]{
		kind: "NodeImage", valid: func() *apps.NodeImage { return newNodeImage(t) },
		validate: ValidateNodeImage, validateUpdate: ValidateNodeImageUpdate,
	}, []upstreamRule[*apps.NodeImage]{
		{rule: f + "at most 256 images",
			mut: func(ni *apps.NodeImage) {
				for i := range 257 {
					ni.Spec.Images[fmt.Sprintf("app-%d", i)] = apps.ImageSpec{Tags: []apps.ImageTagSpec{{Tag: "v1"}}}
				}
			}, want: []wantErr{{Type: "FieldValueTooMany", Field: "spec.images"}}},
		{rule: f + "image name not empty",
			mut:  func(ni *apps.NodeImage) { ni.Spec.Images[""] = apps.ImageSpec{Tags: []apps.ImageTagSpec{{Tag: "v1"}}} },
			want: []wantErr{invalid("spec.images[]")}},
		{rule: f + "tag not empty",
			mut: tags(apps.ImageTagSpec{}), want: []wantErr{required("spec.images[ubuntu].tags[0].tag")}},
		{rule: f + "tags of an image unique",
			mut: tags(apps.ImageTagSpec{Tag: "v1"}, apps.ImageTagSpec{Tag: "v1"}), want: []wantErr{duplicate("spec.images[ubuntu].tags[1].tag")}},
		{rule: f + "version not negative",
			mut: tags(apps.ImageTagSpec{Tag: "v1", Version: -1}), want: []wantErr{invalid("spec.images[ubuntu].tags[0].version")}},
	})
}
