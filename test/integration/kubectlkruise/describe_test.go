package kubectlkruise

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// describe shows each Kruise workload as kubectl describes a Deployment: counts, pod
// template and the controller's events; version names the served Kruise APIs; the
// completion script is generated.
func TestDescribeVersionCompletion(t *testing.T) {
	c := framework.Get(t)
	for _, w := range workloadCases("nginx:1.25") {
		t.Run(w.kind, func(t *testing.T) {
			ns := c.CreateNamespace(t)
			w.apply(t, ns)
			var out string
			// The controller's events arrive after it has created pods.
			framework.WaitFor(t, time.Minute, func() (bool, error) {
				var err error
				out, _, err = kk(t, "describe", w.ref, "-n", ns)
				return err == nil && containsAll(out, "Events:", "Normal", "SuccessfulCreate"), err
			})
			for _, want := range []string{"Name:", "Kind:               " + w.kind, "Selector:           " + w.label, "Pods Status:", "Pod Template:", "main:", "Image:         nginx:1.25"} {
				mustContain(t, "describe", out, want)
			}
			// -l and TYPE select as in kubectl.
			out, _, err := kk(t, "describe", w.resource, "-l", w.label, "-n", ns)
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "describe -l", out, "Pod Template:")
		})
	}
	t.Run("Errors", func(t *testing.T) {
		ns := c.CreateNamespace(t)
		_, stderr, err := kk(t, "describe", "clonesets.apps.kruise.io/nosuch", "-n", ns)
		if err == nil {
			t.Fatal("describe of a missing CloneSet succeeded")
		}
		mustContain(t, "describe missing stderr", stderr, `Error from server (NotFound): clonesets.apps.kruise.io "nosuch" not found`)
		if _, stderr, err = kk(t, "describe", "nosuchkind/x", "-n", ns); err == nil {
			t.Fatal("describe of an unknown type succeeded")
		}
		mustContain(t, "describe unknown stderr", stderr, `error: the server doesn't have a resource type "nosuchkind"`)
	})
	t.Run("Version", func(t *testing.T) {
		out, _, err := kk(t, "version")
		if err != nil {
			t.Fatal(err)
		}
		mustContain(t, "version", out, "Client Version: ")
		mustContain(t, "version", out, "Server Version: v1.")
		mustContain(t, "version", out, "apps.kruise.io/v1beta1")
	})
	t.Run("Completion", func(t *testing.T) {
		for _, shell := range []string{"bash", "zsh"} {
			out, _, err := kk(t, "completion", shell)
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "completion "+shell, out, "kubectl-kruise")
		}
		// kubectl completes `kubectl kruise <TAB>` through kubectl_complete-kruise.
		// (kubectl takes no flags before a plugin's name: the kubeconfig goes by env.)
		cmd := exec.Command(filepath.Join(c.BinDir, "kubectl"), "__complete", "kruise", "rollout", "")
		cmd.Env = append(os.Environ(), "KUBECONFIG="+c.Kubeconfig)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("kubectl __complete kruise rollout: %v: %s", err, out)
		}
		mustContain(t, "kubectl __complete kruise rollout", string(out), "undo")
	})
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
