package sidecarset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// warnings collects the warnings the server returns.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) HandleWarningHeader(_ int, _ string, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, msg)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}

// kruiseClient returns a client whose warnings land in w (nil to drop them).
func kruiseClient(t *testing.T, w *warnings) kruiseclient.Interface {
	t.Helper()
	cfg := rest.CopyConfig(framework.Get(t).Config)
	if w != nil {
		cfg.WarningHandler = w
	}
	return kruiseclient.NewForConfigOrDie(cfg)
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

// exampleDocuments returns the documents of a documented manifest of the given kind.
func exampleDocuments(t *testing.T, file, kind string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(framework.Get(t).Root, "examples", file))
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var meta metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if meta.Kind == kind {
			docs = append(docs, doc)
		}
	}
	if len(docs) == 0 {
		t.Fatalf("no %s in %s", kind, file)
	}
	return docs
}

// deleteSidecarSetAtEnd removes a cluster-scoped SidecarSet when the test ends: other
// tests of this binary share the cluster.
func deleteSidecarSetAtEnd(t *testing.T, name string) {
	t.Cleanup(func() {
		err := kruiseClient(t, nil).AppsV1alpha1().SidecarSets().Delete(context.Background(), name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete SidecarSet %s: %v", name, err)
		}
	})
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

var sidecarSetsV1beta1 = schema.GroupVersionResource{Group: "apps.kruise.io", Version: "v1beta1", Resource: "sidecarsets"}
