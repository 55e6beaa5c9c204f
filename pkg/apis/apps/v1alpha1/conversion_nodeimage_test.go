package v1alpha1

import (
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// v1alpha1 writers (the controllers that add and prune tags) edit the tag list while
// the annotation rides along: each tag keeps its own secrets, removed tags' secrets go,
// and the annotation never reaches the hub.
func TestNodeImageAnnotationFollowsTags(t *testing.T) {
	secrets := []apps.ReferenceObject{{Namespace: "ns", Name: "s"}}
	hub := &apps.NodeImage{
		ObjectMeta: metav1.ObjectMeta{Name: "node-1", Annotations: map[string]string{"keep": "me"}},
		Spec: apps.NodeImageSpec{Images: map[string]apps.ImageSpec{
			"app": {Tags: []apps.ImageTagSpec{{Tag: "1"}, {Tag: "2", PullSecrets: secrets}}},
		}},
		Status: apps.NodeImageStatus{Waiting: 2},
	}
	var alpha NodeImage
	if err := Convert_apps_NodeImage_To_v1alpha1_NodeImage(hub, &alpha, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := hub.Annotations[NodeImageV1beta1FieldsAnnotation]; ok {
		t.Fatal("conversion wrote into the hub object's annotations")
	}
	// A v1alpha1 writer drops tag 1 and adds tag 3 in front.
	img := alpha.Spec.Images["app"]
	img.Tags = []ImageTagSpec{{Tag: "3"}, img.Tags[1]}
	alpha.Spec.Images["app"] = img

	var back apps.NodeImage
	if err := Convert_v1alpha1_NodeImage_To_apps_NodeImage(&alpha, &back, nil); err != nil {
		t.Fatal(err)
	}
	want := []apps.ImageTagSpec{{Tag: "3"}, {Tag: "2", PullSecrets: secrets}}
	if diff := cmp.Diff(want, back.Spec.Images["app"].Tags); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
	if back.Status.Waiting != 2 {
		t.Errorf("waiting = %d, want 2", back.Status.Waiting)
	}
	if diff := cmp.Diff(map[string]string{"keep": "me"}, back.Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}

	// An annotation that does not parse is a conversion error naming it, not an
	// ordinary annotation kept or dropped silently; an Invalid status error, so that
	// the handlers that convert after decoding (patch, update) answer 422, not 500.
	alpha.Annotations = map[string]string{NodeImageV1beta1FieldsAnnotation: "{"}
	err := Convert_v1alpha1_NodeImage_To_apps_NodeImage(&alpha, &apps.NodeImage{}, nil)
	if !apierrors.IsInvalid(err) {
		t.Fatalf("unparsable annotation: want an Invalid error, got %v", err)
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Code != http.StatusUnprocessableEntity {
		t.Errorf("unparsable annotation: want status 422, got %v", err)
	}
	causes := status.Status().Details.Causes
	path := "metadata.annotations[" + NodeImageV1beta1FieldsAnnotation + "]"
	if len(causes) != 1 || causes[0].Field != path || causes[0].Type != metav1.CauseTypeFieldValueInvalid {
		t.Errorf("unparsable annotation: causes %+v, want one Invalid cause at %s", causes, path)
	}
}
