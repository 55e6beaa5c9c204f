package install

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/examples"
)

var updateGoldens = flag.Bool("update", false, "rewrite testdata/defaults from the current defaulting")

// Each documented CloneSet and Advanced StatefulSet manifest, decoded as the server
// decodes it, defaults to the object in testdata/defaults (reviewed against the
// defaults OpenKruise documents: replicas 1, revisionHistoryLimit 10, ReCreate,
// partition 0, maxUnavailable 20%, maxSurge 0; OrderedReady, RollingUpdate with
// maxUnavailable 1, Retain/Retain; and kube's pod template defaults; for image pulls
// timeout 600s, backoffLimit 3, completionPolicy Always, parallelism 1; for container
// recreation failurePolicy Fail; for SidecarSets RollingUpdate with maxUnavailable 1
// and partition 0, revisionHistoryLimit 10, podInjectPolicy BeforeAppContainer,
// upgradeType ColdUpgrade, shareVolumePolicy disabled and kube's container defaults;
// for BroadcastJobs completionPolicy Always, parallelism MaxInt32, failurePolicy FailFast;
// for AdvancedCronJobs concurrencyPolicy Allow, paused false, history limits 3 and 1, and
// kube's pod defaults in the run template; for UnitedDeployments revisionHistoryLimit 10,
// the Manual update strategy and kube's pod defaults in the workload template).
func TestDocumentedManifestsDefaultAsDocumented(t *testing.T) {
	scheme := runtime.NewScheme()
	Install(scheme)
	codecs := serializer.NewCodecFactory(scheme)

	var files []string
	for _, pattern := range []string{"cloneset-*.yaml", "advanced-statefulset*.yaml", "imagepulljob.yaml", "containerrecreaterequest.yaml", "sidecarset*.yaml", "broadcastjob.yaml", "advancedcronjob.yaml", "uniteddeployment.yaml"} {
		m, err := examples.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no documented example matches the patterns: see examples/")
	}
	for _, file := range files {
		name := strings.TrimSuffix(file, ".yaml")
		t.Run(name, func(t *testing.T) {
			data, err := examples.Read(file)
			if err != nil {
				t.Fatal(err)
			}
			// A file may hold several documents (a SidecarSet and the pod it injects
			// into): every apps.kruise.io one is defaulted, the others are left out.
			var docs [][]byte
			for _, doc := range bytes.Split(data, []byte("\n---\n")) {
				_, gvk, err := codecs.UniversalDeserializer().Decode(doc, nil, nil)
				if runtime.IsNotRegisteredError(err) {
					continue
				}
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				// A decoder for the manifest's own version applies defaults, as the API server does.
				obj, _, err := codecs.UniversalDecoder(gvk.GroupVersion()).Decode(doc, nil, nil)
				if err != nil {
					t.Fatalf("decode as %s: %v", gvk, err)
				}
				obj.GetObjectKind().SetGroupVersionKind(*gvk)
				out, err := yaml.Marshal(obj)
				if err != nil {
					t.Fatal(err)
				}
				docs = append(docs, out)
			}
			got := bytes.Join(docs, []byte("---\n"))
			golden := filepath.Join("testdata", "defaults", name+".yaml")
			if *updateGoldens {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("defaulted %s differs from %s (-want +got):\n%s", file, golden, diff)
			}
		})
	}
}
