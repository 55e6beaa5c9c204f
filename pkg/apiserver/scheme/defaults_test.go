package scheme

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

var updateDefaults = flag.Bool("update", false, "rewrite testdata/defaults from the current defaulting")

// nestedDefaultCases are objects whose optional parts are present but empty, so the
// defaults of nested types (templates, strategies, sidecars, probes) are pinned as well:
// "<Kind>/<case>" -> the JSON sent. A case applies to every served version of the kind.
var nestedDefaultCases = map[string]string{
	"CloneSet/onDelete":                    `{"spec":{"updateStrategy":{"type":"OnDelete"}}}`,
	"CloneSet/claimTemplate":               `{"spec":{"volumeClaimTemplates":[{"metadata":{"name":"data"}}]}}`,
	"StatefulSet/onDeleteWithRolling":      `{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":{}}}}`,
	"StatefulSet/retentionPolicy":          `{"spec":{"persistentVolumeClaimRetentionPolicy":{"whenScaled":"Delete"}}}`,
	"DaemonSet/surging":                    `{"spec":{"updateStrategy":{"rollingUpdate":{"rollingUpdateType":"Surging"}}}}`,
	"DaemonSet/onDeleteWithRolling":        `{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":{}}}}`,
	"DaemonSet/maxSurgeOnly":               `{"spec":{"updateStrategy":{"rollingUpdate":{"maxSurge":2}}}}`,
	"AdvancedCronJob/jobTemplate":          `{"spec":{"template":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c"}]}}}}}}}`,
	"AdvancedCronJob/broadcastJob":         `{"spec":{"template":{"broadcastJobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c"}]}}}}}}}`,
	"AdvancedCronJob/imageListPullJob":     `{"spec":{"template":{"imageListPullJobTemplate":{"spec":{"images":["nginx"]}}}}}`,
	"UnitedDeployment/cloneSet":            `{"spec":{"template":{"cloneSetTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c"}]}},"volumeClaimTemplates":[{"metadata":{"name":"d"}}]}}}}}`,
	"UnitedDeployment/advancedStatefulSet": `{"spec":{"template":{"advancedStatefulSetTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c"}]}},"persistentVolumeClaimRetentionPolicy":{},"updateStrategy":{"rollingUpdate":{}}}}}}}`,
	"UnitedDeployment/statefulSet":         `{"spec":{"template":{"statefulSetTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c"}]}},"volumeClaimTemplates":[{"metadata":{"name":"d"}}]}}}}}`,
	"UnitedDeployment/deployment":          `{"spec":{"template":{"deploymentTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c"}]}}}}}}}`,
	"UnitedDeployment/otherStrategy":       `{"spec":{"updateStrategy":{"type":"Other"}}}`,
	"SidecarSet/parts": `{"spec":{"containers":[{"name":"s","transferEnv":[{"sourceContainerNameFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}],` +
		`"initContainers":[{"name":"i"}],"volumes":[{"name":"v","emptyDir":{}}],"patchPodMetadata":[{}],"injectionStrategy":{"revision":{}}}}`,
	"WorkloadSpread/adaptive":       `{"spec":{"scheduleStrategy":{"type":"Adaptive"}}}`,
	"WorkloadSpread/fixedAdaptive":  `{"spec":{"scheduleStrategy":{"type":"Fixed","adaptive":{}}}}`,
	"NodeImage/tag":                 `{"spec":{"images":{"nginx":{"tags":[{"tag":"1"},{"tag":"2","pullPolicy":{}}]}}}}`,
	"ImagePullJob/pullPolicy":       `{"spec":{"pullPolicy":{}}}`,
	"ImageListPullJob/pullPolicy":   `{"spec":{"pullPolicy":{}}}`,
	"ContainerRecreateRequest/some": `{"spec":{"strategy":{}}}`,
	"PodProbeMarker/probe":          `{"spec":{"probes":[{"name":"p","probe":{"httpGet":{"port":80}}}]}}`,
	"NodePodProbe/probe":            `{"spec":{"podProbes":[{"name":"p","probes":[{"name":"q","probe":{"tcpSocket":{"port":80}}}]}]}}`,
	"BroadcastJob/template":         `{"spec":{"template":{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}}}`,
}

// TestDefaultsOfEmptyObjects pins what defaulting gives an empty object of every kind
// in every served version (and the nested cases above), as the server's decoder
// applies it: testdata/defaults/<group>_<version>.yaml holds the values reviewed before
// the defaults moved to +default= markers, so the move changes no default.
func TestDefaultsOfEmptyObjects(t *testing.T) {
	byVersion := map[schema.GroupVersion]map[string]any{}
	for gvk := range Scheme.AllKnownTypes() {
		if (gvk.Group != "apps.kruise.io" && gvk.Group != "policy.kruise.io") ||
			gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		if obj, _ := Scheme.New(gvk); !isObject(obj) {
			continue // options, watch events, rollbacks: no object of their own
		}
		out := byVersion[gvk.GroupVersion()]
		if out == nil {
			out = map[string]any{}
			byVersion[gvk.GroupVersion()] = out
		}
		out[gvk.Kind] = defaulted(t, gvk, `{}`)
		for name, in := range nestedDefaultCases {
			if kind, _, _ := strings.Cut(name, "/"); kind == gvk.Kind {
				out[name] = defaulted(t, gvk, in)
			}
		}
	}
	if len(byVersion) != 4 {
		t.Fatalf("want the 4 served group versions, got %d", len(byVersion))
	}
	var seen []string
	for name := range nestedDefaultCases {
		seen = append(seen, name)
	}
	sort.Strings(seen)
	for gv, cases := range byVersion {
		got, err := yaml.Marshal(cases)
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "defaults", gv.Group+"_"+gv.Version+".yaml")
		if *updateDefaults {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("defaults of %s differ from %s (-want +got):\n%s", gv, golden, diff)
		}
	}
	// every nested case names a kind that is served
	for _, name := range seen {
		kind, _, _ := strings.Cut(name, "/")
		found := false
		for _, cases := range byVersion {
			_, ok := cases[kind]
			found = found || ok
		}
		if !found {
			t.Errorf("case %s: no served kind %s", name, kind)
		}
	}
}

func isObject(obj runtime.Object) bool {
	_, ok := obj.(metav1.Object)
	return ok
}

// defaulted decodes data as gvk into a new object, defaults it as the server's decoder
// does, and returns it as generic JSON (the golden compares what a client reads).
func defaulted(t *testing.T, gvk schema.GroupVersionKind, data string) any {
	t.Helper()
	obj, err := Scheme.New(gvk)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(data), obj); err != nil {
		t.Fatalf("%s %s: %v", gvk, data, err)
	}
	Scheme.Default(obj)
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
