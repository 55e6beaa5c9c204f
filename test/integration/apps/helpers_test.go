package apps

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/rest"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// examplesDir holds the manifests users copy from the documentation.
func examplesDir(t *testing.T) string {
	t.Helper()
	c := framework.Get(t)
	dir := filepath.Join(c.Root, "examples")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("documented examples not found at %s: %v", dir, err)
	}
	return dir
}

func kruiseClient(t *testing.T) kruiseclient.Interface {
	t.Helper()
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// kubectl runs kubectl and fails the test on error.
func kubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, _, err := framework.Get(t).Kubectl(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kubectlStdin runs kubectl with a manifest on standard input.
func kubectlStdin(t *testing.T, manifest string, args ...string) (string, error) {
	t.Helper()
	return framework.Get(t).KubectlStdin(t, manifest, args...)
}

// headerFields returns the column names of kubectl's table output.
func headerFields(out string) []string {
	line, _, _ := strings.Cut(out, "\n")
	return strings.Fields(line)
}

func protobufConfig(t *testing.T) *rest.Config {
	cfg := rest.CopyConfig(framework.Get(t).Config)
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf"
	return cfg
}

func intOrStr(i int) intstr.IntOrString { return intstr.FromInt32(int32(i)) }
