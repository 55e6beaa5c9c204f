package controlplane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The kustomize base for real clusters renders, and kube-apiserver accepts every
// object in it (server-side dry run: schema, defaulting and admission, nothing stored).
func TestDeployManifestsAreAccepted(t *testing.T) {
	c := framework.Get(t)
	// The cert-manager variant is a kustomize Component, used from an overlay.
	overlay := t.TempDir()
	base, err := filepath.Rel(overlay, filepath.Join(c.Root, "artifacts/deploy"))
	if err != nil {
		t.Fatal(err)
	}
	kustomization := "resources:\n- " + base + "\ncomponents:\n- " + base + "/cert-manager\n"
	if err := os.WriteFile(filepath.Join(overlay, "kustomization.yaml"), []byte(kustomization), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, dir := range map[string]string{"default": filepath.Join(c.Root, "artifacts/deploy"), "cert-manager": overlay} {
		t.Run(name, func(t *testing.T) {
			rendered, _, err := c.Kubectl(t, "kustomize", dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range []string{"kind: Deployment", "kind: DaemonSet", "kind: APIService", "kind: PodDisruptionBudget"} {
				if !strings.Contains(rendered, kind) {
					t.Errorf("%s renders no %s", dir, kind)
				}
			}
			if name == "cert-manager" {
				// cert-manager's own kinds are not installed here: render and check only.
				if !strings.Contains(rendered, "cert-manager.io/inject-ca-from") {
					t.Fatal("the cert-manager variant does not ask cainjector for the APIServices' caBundle")
				}
				return
			}
			out, err := c.KubectlStdin(t, rendered, "apply", "--dry-run=server", "-f", "-")
			if err != nil {
				t.Fatalf("server-side dry run rejected the rendered manifests: %v", err)
			}
			if !strings.Contains(out, "(server dry run)") {
				t.Fatalf("unexpected dry-run output:\n%s", out)
			}
		})
	}
}
