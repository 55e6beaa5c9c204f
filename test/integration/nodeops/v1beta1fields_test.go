package nodeops

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// fieldsAnnotationPath is the field path refusals of the annotation name.
const fieldsAnnotationPath = "metadata.annotations[" + v1alpha1.NodeImageV1beta1FieldsAnnotation + "]"

// The v1beta1-fields annotation is the server's: written only when a NodeImage is read
// as v1alpha1, and turned back into status.waiting and the tags' pullSecrets when a
// v1alpha1 object is written. A client may not set it through v1beta1, nor send one
// that does not parse through v1alpha1; what the server wrote round-trips.
func TestNodeImageV1beta1FieldsAnnotationIsTheServers(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t)
	ns := c.CreateNamespace(t)

	// A node without a daemon, so that only kruise-controller (which creates its
	// NodeImage and prunes tags of gone jobs) and this test write its NodeImage. The
	// refused creates use the name of a node that does not exist: nothing but them
	// would ever create a NodeImage of that name.
	const node = "kwok-v1beta1-fields"
	const absent = "no-such-node-v1beta1-fields"
	c.JoinNode(t, node, nil)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := kc.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		return err == nil, client404(err)
	})

	assertAbsent := func(t *testing.T) {
		t.Helper()
		_, err := kc.AppsV1beta1().NodeImages().Get(ctx, absent, metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			t.Errorf("GET NodeImage %s after a refused create: %v, want 404", absent, err)
		}
		if _, stderr, err := c.Kubectl(t, "get", "nodeimages.v1beta1.apps.kruise.io", absent); err == nil || !strings.Contains(stderr, "NotFound") {
			t.Errorf("kubectl get %s after a refused create: %v, want NotFound", absent, err)
		}
	}

	t.Run("v1beta1 create with the annotation is refused", func(t *testing.T) {
		manifest := `
apiVersion: apps.kruise.io/v1beta1
kind: NodeImage
metadata:
  name: ` + absent + `
  annotations:
    ` + v1alpha1.NodeImageV1beta1FieldsAnnotation + `: '{"waiting":3}'
spec:
  images:
    nginx:
      tags:
      - tag: "1.27"
`
		out, err := c.KubectlStdin(t, manifest, "create", "-f", "-")
		if err == nil || !strings.Contains(err.Error(), fieldsAnnotationPath+": Forbidden") {
			t.Errorf("kubectl create: %v (output %q); want a refusal naming %s", err, out, fieldsAnnotationPath)
		}
		// The status code, and the cause kubectl printed, from the API itself.
		body, err := yaml.YAMLToJSON([]byte(manifest))
		if err != nil {
			t.Fatal(err)
		}
		err = kc.AppsV1beta1().RESTClient().Post().Resource("nodeimages").
			Body(body).SetHeader("Content-Type", "application/json").Do(ctx).Error()
		assertRefused(t, err, http.StatusUnprocessableEntity, metav1.CauseTypeForbidden)
		assertAbsent(t)
	})

	t.Run("v1beta1 update adding the annotation is refused", func(t *testing.T) {
		before, err := kc.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, stderr, err := c.Kubectl(t, "annotate", "nodeimages.v1beta1.apps.kruise.io", node,
			v1alpha1.NodeImageV1beta1FieldsAnnotation+`={"waiting":3}`)
		if err == nil || !strings.Contains(err.Error(), fieldsAnnotationPath) {
			t.Errorf("kubectl annotate: %v (%s); want a refusal naming %s", err, stderr, fieldsAnnotationPath)
		}
		after, err := kc.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := after.Annotations[v1alpha1.NodeImageV1beta1FieldsAnnotation]; ok || after.Status.Waiting != before.Status.Waiting {
			t.Errorf("after a refused annotate: annotations %v, waiting %d", after.Annotations, after.Status.Waiting)
		}
	})

	t.Run("v1alpha1 annotation that does not parse is refused", func(t *testing.T) {
		manifest := `
apiVersion: apps.kruise.io/v1alpha1
kind: NodeImage
metadata:
  name: ` + absent + `
  annotations:
    ` + v1alpha1.NodeImageV1beta1FieldsAnnotation + `: '{"waiting":'
`
		out, err := c.KubectlStdin(t, manifest, "create", "-f", "-")
		if err == nil || !strings.Contains(err.Error(), fieldsAnnotationPath) {
			t.Errorf("kubectl create: %v (output %q); want a refusal naming %s", err, out, fieldsAnnotationPath)
		}
		// A create decodes (and converts) the body before anything else: 400.
		_, err = kc.AppsV1alpha1().NodeImages().Create(ctx, &v1alpha1.NodeImage{ObjectMeta: metav1.ObjectMeta{
			Name: absent, Annotations: map[string]string{v1alpha1.NodeImageV1beta1FieldsAnnotation: `{"waiting":`},
		}}, metav1.CreateOptions{})
		assertRefused(t, err, http.StatusBadRequest, "")
		assertAbsent(t)

		// A patch converts after applying it to the stored object: 422. A merge patch's
		// decoding error is wrapped by the handler as an invalid "patch"; a strategic
		// merge patch returns the conversion's own error, which names the annotation
		// (a plain error there would be a 500).
		before, err := kc.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		patch := `{"metadata":{"annotations":{"` + v1alpha1.NodeImageV1beta1FieldsAnnotation + `":"[1,"}}}`
		for _, pt := range []struct {
			typ   types.PatchType
			cause metav1.CauseType
		}{{types.MergePatchType, ""}, {types.StrategicMergePatchType, metav1.CauseTypeFieldValueInvalid}} {
			_, err = kc.AppsV1alpha1().NodeImages().Patch(ctx, node, pt.typ, []byte(patch), metav1.PatchOptions{})
			t.Logf("%s: %v", pt.typ, err)
			assertRefused(t, err, http.StatusUnprocessableEntity, pt.cause)
		}
		after, err := kc.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := after.Annotations[v1alpha1.NodeImageV1beta1FieldsAnnotation]; ok || !reflect.DeepEqual(after.Spec, before.Spec) {
			t.Errorf("a refused patch changed the object: annotations %v, spec %+v (was %+v)", after.Annotations, after.Spec, before.Spec)
		}
	})

	t.Run("v1alpha1 annotation as the server writes it round-trips", func(t *testing.T) {
		// The server's form of per-tag pullSecrets (spec) and waiting (status), written
		// through v1alpha1 as an older client that read it would write it back.
		fields := `{"waiting":1,"tagPullSecrets":{"nginx":{"1.27":[{"namespace":"` + ns + `","name":"tag-cred"}]}}}`
		cur := map[string]any{}
		if err := json.Unmarshal([]byte(kubectl(t, "get", "nodeimages.v1alpha1.apps.kruise.io", node, "-o", "json")), &cur); err != nil {
			t.Fatal(err)
		}
		meta := cur["metadata"].(map[string]any)
		meta["annotations"] = map[string]any{"keep": "me", v1alpha1.NodeImageV1beta1FieldsAnnotation: fields}
		cur["spec"] = map[string]any{"images": map[string]any{"nginx": map[string]any{
			"tags": []any{map[string]any{"tag": "1.27", "version": 1}, map[string]any{"tag": "1.28", "version": 1}},
		}}}
		spec, _ := json.Marshal(cur)
		if out, err := c.KubectlStdin(t, string(spec), "replace", "-f", "-"); err != nil {
			t.Fatalf("kubectl replace (v1alpha1): %v\n%s", err, out)
		}

		// status.waiting comes through the status subresource, as the old node daemon
		// writes it: read the object again (new resourceVersion) and put its status.
		if err := json.Unmarshal([]byte(kubectl(t, "get", "nodeimages.v1alpha1.apps.kruise.io", node, "-o", "json")), &cur); err != nil {
			t.Fatal(err)
		}
		cur["metadata"].(map[string]any)["annotations"].(map[string]any)[v1alpha1.NodeImageV1beta1FieldsAnnotation] = fields
		cur["status"] = map[string]any{"desired": 2, "pulling": 1, "imageStatuses": map[string]any{"nginx": map[string]any{
			"tags": []any{map[string]any{"tag": "1.27", "phase": "Pulling", "version": 1}},
		}}}
		status, _ := json.Marshal(cur)
		if out, err := c.KubectlStdin(t, string(status), "replace", "--subresource=status", "-f", "-"); err != nil {
			t.Fatalf("kubectl replace --subresource=status (v1alpha1): %v\n%s", err, out)
		}

		// In v1beta1 the fields are where v1beta1 has them and the annotation is gone.
		var beta struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
			Spec     struct {
				Images map[string]struct {
					Tags []struct {
						Tag         string `json:"tag"`
						PullSecrets []struct {
							Namespace string `json:"namespace"`
							Name      string `json:"name"`
						} `json:"pullSecrets"`
					} `json:"tags"`
				} `json:"images"`
			} `json:"spec"`
			Status struct {
				Waiting int32 `json:"waiting"`
			} `json:"status"`
		}
		if err := json.Unmarshal([]byte(kubectl(t, "get", "nodeimages.v1beta1.apps.kruise.io", node, "-o", "json")), &beta); err != nil {
			t.Fatal(err)
		}
		if got := beta.Metadata.Annotations; len(got) != 1 || got["keep"] != "me" {
			t.Errorf("v1beta1 annotations %v, want only keep=me", got)
		}
		if beta.Status.Waiting != 1 {
			t.Errorf("v1beta1 status.waiting %d, want 1", beta.Status.Waiting)
		}
		tags := beta.Spec.Images["nginx"].Tags
		if len(tags) != 2 || tags[0].Tag != "1.27" || len(tags[0].PullSecrets) != 1 ||
			tags[0].PullSecrets[0].Namespace != ns || tags[0].PullSecrets[0].Name != "tag-cred" ||
			tags[1].Tag != "1.28" || len(tags[1].PullSecrets) != 0 {
			t.Errorf("v1beta1 spec.images.nginx.tags %+v, want 1.27 with %s/tag-cred and 1.28 without secrets", tags, ns)
		}

		// And a v1alpha1 read gives the same annotation back.
		var alpha metav1.PartialObjectMetadata
		if err := json.Unmarshal([]byte(kubectl(t, "get", "nodeimages.v1alpha1.apps.kruise.io", node, "-o", "json")), &alpha); err != nil {
			t.Fatal(err)
		}
		assertJSONEqual(t, "v1alpha1 annotation", fields, json.RawMessage(alpha.Annotations[v1alpha1.NodeImageV1beta1FieldsAnnotation]))
	})
}

// assertRefused checks err is a status error with code and, unless cause is empty, a
// cause of that type at the annotation; the message names the annotation either way.
func assertRefused(t *testing.T, err error, code int32, cause metav1.CauseType) {
	t.Helper()
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		t.Fatalf("want a %d status error naming %s, got %v", code, fieldsAnnotationPath, err)
	}
	st := status.Status()
	if st.Code != code || !strings.Contains(st.Message, fieldsAnnotationPath) {
		t.Errorf("got %d %q, want %d naming %s", st.Code, st.Message, code, fieldsAnnotationPath)
	}
	if cause == "" {
		return
	}
	if st.Details == nil || len(st.Details.Causes) != 1 || st.Details.Causes[0].Field != fieldsAnnotationPath || st.Details.Causes[0].Type != cause {
		t.Errorf("causes %+v, want one %s at %s", st.Details, cause, fieldsAnnotationPath)
	}
}
