package deletionprotection

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const label = "policy.kruise.io/delete-protection"

// examplePath is a documented manifest, applied unchanged.
func examplePath(t *testing.T, name string) string {
	t.Helper()
	f := filepath.Join(framework.Get(t).Root, "examples", name)
	if _, err := os.Stat(f); err != nil {
		t.Fatal(err)
	}
	return f
}

// kubectl runs kubectl and fails the test on an error.
func kubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := framework.Get(t).Kubectl(t, args...)
	if err != nil {
		t.Fatalf("%v (%s)", err, stderr)
	}
	return out
}

// refused runs a kubectl delete that must be refused by the deletion webhook and
// returns its message: kube-apiserver's answer names the webhook and the rule.
func refused(t *testing.T, args ...string) string {
	t.Helper()
	_, stderr, err := framework.Get(t).Kubectl(t, args...)
	if err == nil {
		t.Fatalf("kubectl %s: not refused", strings.Join(args, " "))
	}
	if !strings.Contains(stderr, `admission webhook "deletion.validate.kruise-native.io" denied the request`) {
		t.Fatalf("kubectl %s: refused, but not by the deletion webhook: %s", strings.Join(args, " "), stderr)
	}
	return stderr
}

// waitRefused waits until a dry-run of the delete is refused by the webhook:
// kube-apiserver reads webhook configurations and labels from its caches.
func waitRefused(t *testing.T, args ...string) {
	t.Helper()
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, stderr, err := framework.Get(t).Kubectl(t, append(args, "--dry-run=server")...)
		return err != nil && strings.Contains(stderr, "deletion.validate.kruise-native.io"), nil
	})
}

// mustContain fails unless text has every fragment.
func mustContain(t *testing.T, text string, fragments ...string) {
	t.Helper()
	for _, f := range fragments {
		if !strings.Contains(text, f) {
			t.Errorf("%q does not contain %q", text, f)
		}
	}
}

// namespaceGone waits until the namespace is deleted completely.
func namespaceGone(t *testing.T, name string, timeout time.Duration) {
	t.Helper()
	c := framework.Get(t)
	framework.WaitFor(t, timeout, func() (bool, error) {
		_, err := c.Client.CoreV1().Namespaces().Get(context.Background(), name, metav1.GetOptions{})
		return err != nil && strings.Contains(err.Error(), "not found"), nil
	})
}

// unprotect removes the label (ignoring objects already gone), for cleanups.
func unprotect(t *testing.T, args ...string) {
	_, _, _ = framework.Get(t).Kubectl(t, append([]string{"label", "--overwrite"}, append(args, label+"-")...)...)
}
