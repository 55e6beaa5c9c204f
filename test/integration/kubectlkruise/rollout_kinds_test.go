package kubectlkruise

import (
	"strings"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// The rollout commands on each Kruise workload kind, driven by the plugin end to end:
// status waits for the rollout, set image makes revision 2, history lists both and
// shows revision 1, undo restores revision 1's image through the rollback
// subresource, pause and resume flip the kind's paused field, restart stamps the
// template, and an undo to a missing revision fails with the server's error and
// changes nothing.
func TestRolloutOnEachKind(t *testing.T) {
	c := framework.Get(t)
	const img = ".spec.template.spec.containers[0].image"
	for _, w := range workloadCases("nginx:1.25") {
		t.Run(w.kind, func(t *testing.T) {
			ns := c.CreateNamespace(t)
			w.apply(t, ns)
			out, _, err := kk(t, "rollout", "status", w.ref, "-n", ns, "--timeout=2m")
			if err != nil {
				t.Fatalf("rollout status: %v\n%s", err, out)
			}
			mustContain(t, "rollout status", out, "successfully rolled out")

			if _, _, err := kk(t, "set", "image", w.ref, "main=nginx:1.26", "-n", ns); err != nil {
				t.Fatal(err)
			}
			if out, _, err = kk(t, "rollout", "status", w.ref, "-n", ns, "--timeout=2m"); err != nil {
				t.Fatalf("rollout status after set image: %v\n%s", err, out)
			}
			// The controller records the new revision as it rolls it out.
			framework.WaitFor(t, time.Minute, func() (bool, error) {
				out, _, err = kk(t, "rollout", "history", w.ref, "-n", ns)
				return err == nil && strings.Contains(out, "\n2 "), err
			})
			mustContain(t, "history", out, "REVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n")
			out, _, err = kk(t, "rollout", "history", w.ref, "-n", ns, "--revision=1")
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "history --revision=1", out, "nginx:1.25")

			mustFailUnchanged(t, ns, w.ref, "available revisions: 1, 2", "rollout", "undo", w.ref, "-n", ns, "--to-revision=42")

			out, _, err = kk(t, "rollout", "undo", w.ref, "-n", ns, "--to-revision=1")
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "undo", out, w.printed+" rolled back")
			if got := jsonpath(t, ns, w.ref, img); got != "nginx:1.25" {
				t.Fatalf("image after undo = %q, want nginx:1.25", got)
			}

			out, _, err = kk(t, "rollout", "pause", w.ref, "-n", ns)
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "pause", out, w.printed+" paused")
			out, _, err = kk(t, "rollout", "resume", w.ref, "-n", ns)
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "resume", out, w.printed+" resumed")

			out, _, err = kk(t, "rollout", "restart", w.ref, "-n", ns)
			if err != nil {
				t.Fatal(err)
			}
			mustContain(t, "restart", out, w.printed+" restarted")
			if got := jsonpath(t, ns, w.ref, `.spec.template.metadata.annotations.kubectl\.kubernetes\.io/restartedAt`); got == "" {
				t.Fatal("restart left no restartedAt annotation on the template")
			}
		})
	}
}
