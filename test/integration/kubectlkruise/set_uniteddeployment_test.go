package kubectlkruise

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// `kubectl kruise set image ud/NAME` edits the workload template a UnitedDeployment
// holds, and the UnitedDeployment controller carries the new image into every subset's
// workload; a container that does not exist fails without writing.
func TestSetImageOnUnitedDeployment(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	example, err := os.ReadFile(filepath.Join(c.Root, "examples", "uniteddeployment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := c.KubectlStdin(t, string(example), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v\n%s", err, out)
	}
	const ref = "ud/sample-ud"
	out, _, err := kk(t, "set", "image", ref, "nginx=nginx:1.27", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "set image", out, "uniteddeployment.apps.kruise.io/sample-ud image updated")
	if got := jsonpath(t, ns, ref, ".spec.template.cloneSetTemplate.spec.template.spec.containers[0].image"); got != "nginx:1.27" {
		t.Fatalf("template image = %q after set image", got)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		out, _, err := c.Kubectl(t, "get", "clonesets.apps.kruise.io", "-n", ns, "-l", "app=sample-ud",
			"-o", "jsonpath={range .items[*]}{.spec.template.spec.containers[0].image}{\"\\n\"}{end}")
		if err != nil {
			return false, err
		}
		images := strings.Fields(out)
		if len(images) != 3 {
			return false, nil
		}
		for _, img := range images {
			if img != "nginx:1.27" {
				return false, nil
			}
		}
		return true, nil
	})
	mustFailUnchanged(t, ns, ref, `error: unable to find container named "nosuch"`,
		"set", "image", ref, "nosuch=busybox", "-n", ns)
}
