package nodeops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func kruiseClient(t *testing.T) kruiseclient.Interface {
	t.Helper()
	return kruiseclient.NewForConfigOrDie(framework.Get(t).Config)
}

// kubectl runs kubectl and fails the test on error.
func kubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := framework.Get(t).Kubectl(t, args...)
	if err != nil {
		t.Fatalf("kubectl %v: %v\n%s", args, err, stderr)
	}
	return out
}

// readExample returns a documented manifest.
func readExample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(framework.Get(t).Root, "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// headerFields returns the column names of kubectl's table output.
func headerFields(out string) []string {
	line, _, _ := strings.Cut(out, "\n")
	return strings.Fields(line)
}

// row returns the fields of the table row whose first column is name.
func row(out, name string) []string {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == name {
			return f
		}
	}
	return nil
}
