package kubectlkruise

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// kubectl's set commands, run through the plugin, edit the pod template of each Kruise
// workload kind; TYPE/NAME, -l, -f, -o and --dry-run=server behave as in kubectl, and
// wrong input fails without writing.
func TestSetOnKruiseWorkloads(t *testing.T) {
	c := framework.Get(t)
	for _, w := range workloadCases("nginx:1.25") {
		t.Run(w.kind, func(t *testing.T) {
			ns := c.CreateNamespace(t)
			w.apply(t, ns)
			const img = ".spec.template.spec.containers[0].image"

			out, _, err := kk(t, "set", "image", w.ref, "main=nginx:1.26", "-n", ns)
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "set image", out, w.printed+" image updated")
			if got := jsonpath(t, ns, w.ref, img); got != "nginx:1.26" {
				t.Fatalf("image = %q after set image", got)
			}

			// -f names the object by file; the file's image is not what is written.
			file := filepath.Join(t.TempDir(), "w.yaml")
			if err := os.WriteFile(file, []byte(w.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, _, err := kk(t, "set", "image", "-f", file, "main=nginx:1.27", "-n", ns); err != nil {
				t.Fatal(err)
			}
			if got := jsonpath(t, ns, w.ref, img); got != "nginx:1.27" {
				t.Fatalf("image = %q after set image -f", got)
			}

			// A server dry run prints the result and keeps the object.
			before := jsonpath(t, ns, w.ref, ".metadata.generation")
			out, _, err = kk(t, "set", "env", w.ref, "LOG_LEVEL=debug", "-n", ns, "--dry-run=server", "-o", "yaml")
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "set env --dry-run=server", out, "name: LOG_LEVEL")
			if after := jsonpath(t, ns, w.ref, ".metadata.generation"); after != before {
				t.Fatal("set env --dry-run=server wrote the object")
			}
			// -l selects the object by its labels.
			out, _, err = kk(t, "set", "env", w.resource, "-l", w.label, "LOG_LEVEL=debug", "-n", ns)
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "set env -l", out, "env updated")
			if got := jsonpath(t, ns, w.ref, ".spec.template.spec.containers[0].env[0].value"); got != "debug" {
				t.Fatalf("env LOG_LEVEL = %q", got)
			}

			if _, _, err := kk(t, "set", "resources", w.ref, "-c", "main", "--limits=cpu=200m", "-n", ns); err != nil {
				t.Fatal(err)
			}
			if got := jsonpath(t, ns, w.ref, ".spec.template.spec.containers[0].resources.limits.cpu"); got != "200m" {
				t.Fatalf("cpu limit = %q", got)
			}
			if _, _, err := kk(t, "set", "serviceaccount", w.ref, "builder", "-n", ns); err != nil {
				t.Fatal(err)
			}
			if got := jsonpath(t, ns, w.ref, ".spec.template.spec.serviceAccountName"); got != "builder" {
				t.Fatalf("serviceAccountName = %q", got)
			}

			mustFailUnchanged(t, ns, w.ref, `error: unable to find container named "nosuch"`,
				"set", "image", w.ref, "nosuch=busybox", "-n", ns)
			mustFailUnchanged(t, ns, w.ref, `error: unable to find container named nosuch`,
				"set", "resources", w.ref, "-c", "nosuch", "--limits=cpu=1", "-n", ns)
			// kubectl sets selectors of Services only; a workload's selector is immutable.
			mustFailUnchanged(t, ns, w.ref, "setting a selector is only supported for Services",
				"set", "selector", w.ref, "app=other", "-n", ns)
		})
	}
	// The built-in kinds go to kubectl's own helper, unchanged.
	t.Run("Deployment", func(t *testing.T) {
		ns := c.CreateNamespace(t)
		if _, err := c.KubectlStdin(t, migrateDeployment, "apply", "-n", ns, "-f", "-"); err != nil {
			t.Fatal(err)
		}
		out, _, err := kk(t, "set", "image", "deployment/web", "main=nginx:1.26", "-n", ns)
		if err != nil {
			t.Fatal(err)
		}
		mustContain(t, "set image deployment", out, "deployment.apps/web image updated")
		if got := jsonpath(t, ns, "deployment/web", ".spec.template.spec.containers[0].image"); got != "nginx:1.26" {
			t.Fatalf("deployment image = %q", got)
		}
		mustFailUnchanged(t, ns, "deployment/web", `error: unable to find container named "nosuch"`,
			"set", "image", "deployment/web", "nosuch=busybox", "-n", ns)
	})
	t.Run("UnknownKind", func(t *testing.T) {
		ns := c.CreateNamespace(t)
		_, stderr, err := kk(t, "set", "image", "nosuchkind/x", "main=nginx", "-n", ns)
		if err == nil {
			t.Fatal("set image of an unknown type succeeded")
		}
		mustContain(t, "stderr", stderr, `error: the server doesn't have a resource type "nosuchkind"`)
	})
}
