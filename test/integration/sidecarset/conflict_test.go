package sidecarset

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A SidecarSet that would inject a container of the same name, or a volume of the same
// name defined differently, into pods another SidecarSet selects is refused with the
// other's name; one selecting other pods, or sharing the volume as defined, is not.
func TestConflictingSidecarSets(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseClient(t, nil)
	for _, doc := range exampleDocuments(t, "sidecarset.yaml", "SidecarSet") {
		// Renamed and moved to pods of its own: the documented one may still be in the
		// admission cache from another test.
		doc = strings.NewReplacer("name: test-sidecarset", "name: conflict-base", "app: nginx", "app: conflict").Replace(doc)
		if _, err := c.KubectlStdin(t, doc, "apply", "-f", "-"); err != nil {
			t.Fatal(err)
		}
	}
	deleteSidecarSetAtEnd(t, "conflict-base")

	manifest := func(name, app, container, volume string) string {
		return `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: ` + name + `}
spec:
  selector:
    matchExpressions: [{key: app, operator: In, values: [` + app + `]}]
  containers: [{name: ` + container + `, image: busybox, volumeMounts: [{name: log-volume, mountPath: /log}]}]
  volumes: [{name: log-volume, ` + volume + `}]`
	}
	refused := []struct {
		name, manifest, field string
	}{
		{"same container", manifest("conflict-container", "conflict", "sidecar1", "emptyDir: {}"), "spec.containers[0].name"},
		{"same volume, other definition", manifest("conflict-volume", "conflict", "other", "hostPath: {path: /var/log}"), "spec.volumes[0]"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.KubectlStdin(t, tc.manifest, "create", "-f", "-")
			if err == nil || !strings.Contains(err.Error(), tc.field) || !strings.Contains(err.Error(), `SidecarSet "conflict-base"`) {
				t.Fatalf("want a refusal at %s naming conflict-base, got %v", tc.field, err)
			}
		})
	}
	for _, name := range []string{"conflict-container", "conflict-volume"} {
		if _, err := kc.AppsV1alpha1().SidecarSets().Get(ctx, name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("%s: nothing must be stored, got %v", name, err)
		}
	}

	allowed := []struct{ name, manifest string }{
		{"same container, other pods", manifest("other-pods", "redis", "sidecar1", "emptyDir: {}")},
		{"same volume, same definition", manifest("shared-volume", "conflict", "other", "emptyDir: {}")},
	}
	for _, tc := range allowed {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.KubectlStdin(t, tc.manifest, "create", "-f", "-"); err != nil {
				t.Fatal(err)
			}
		})
	}
	deleteSidecarSetAtEnd(t, "other-pods")
	deleteSidecarSetAtEnd(t, "shared-volume")

	// Widening the selector of the one on other pods onto conflict-base's adds the clash: refused.
	patch := []byte(`{"spec":{"selector":{"matchExpressions":[{"key":"app","operator":"In","values":["redis","conflict"]}]}}}`)
	_, err := kc.AppsV1alpha1().SidecarSets().Patch(ctx, "other-pods", "application/merge-patch+json", patch, metav1.PatchOptions{})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), `SidecarSet "conflict-base"`) {
		t.Fatalf("widening onto conflict-base's pods: want 422 naming it, got %v", err)
	}
}
