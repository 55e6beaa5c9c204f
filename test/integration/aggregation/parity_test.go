package aggregation

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// TestFieldParity compares the OpenAPI v3 that kruise-apiserver serves (through
// kube-apiserver's aggregator) with OpenKruise's published fields, kind by kind, and
// fails for every JSON field path OpenKruise has and this server does not serve.
//
// OpenKruise's fields are the golden files under testdata/openkruise, one per
// group/version/kind, written by hack/openkruise-fields (do not edit them) from the
// upstream source files of github.com/openkruise/kruise at the commits listed in
// testdata/openkruise/SOURCES.md: master's v1alpha1 (apps and policy) types and
// v1beta1 StatefulSet, and the v1beta1 kinds that exist only on master. The module
// proxy serves kruise-api only up to v1.8.0, so the goldens are kept as data
// (update.sh regenerates them from a checkout in OPENKRUISE_SRC). SOURCES.md also
// lists the newer upstream v1alpha1 fields the goldens cannot hold yet.
//
// Both sides stop at Kubernetes' own types (PodTemplateSpec, PVC templates,
// LabelSelector, ...): their fields are Kubernetes', not OpenKruise's. A missing field
// may only be accepted in testdata/openkruise/exceptions.txt, with its reason.
func TestFieldParity(t *testing.T) {
	c := framework.Get(t)
	exceptions := readExceptions(t)
	docs := map[string]map[string]any{}
	// used are the exceptions a missing path needed; checked the rows whose every path
	// was compared, so an exception of a row that failed early or was not run is not
	// called unneeded.
	used, checked := map[string]bool{}, map[string]bool{}
	for _, r := range parityRows {
		t.Run(r.String(), func(t *testing.T) {
			gv := r.group + "/" + r.version
			if docs[gv] == nil {
				docs[gv] = fetchOpenAPIV3(t, c, gv)
			}
			served, err := servedPaths(docs[gv], r)
			if err != nil {
				t.Fatal(err)
			}
			var missing []string
			for _, p := range readGolden(t, r) {
				if served[p] {
					continue
				}
				if key := r.String() + " " + p; exceptions[key] != "" {
					used[key] = true
					continue
				}
				missing = append(missing, p)
			}
			checked[r.String()] = true
			if len(missing) > 0 {
				t.Errorf("%d field(s) OpenKruise has that %s does not serve:\n  %s", len(missing), r, strings.Join(missing, "\n  "))
			}
		})
	}
	// An exception nothing needs any more (the path is served now, or no golden has it)
	// is removed, so the list stays the reasons for what is really missing.
	keys := make([]string, 0, len(exceptions))
	for k := range exceptions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f := strings.Fields(k)
		if row := f[0] + " " + f[1]; !used[k] && (checked[row] || !isParityRow(row)) {
			t.Errorf("exceptions.txt: %q is not needed (served, or in no golden of a served kind); remove it", k)
		}
	}
}

func isParityRow(s string) bool {
	for _, r := range parityRows {
		if r.String() == s {
			return true
		}
	}
	return false
}

// fetchOpenAPIV3 reads the OpenAPI v3 of gv through kube-apiserver's aggregator. Other
// tests of this package restart kruise-apiserver, and the aggregator answers 404 or 503
// (or the connection fails) until it has the restarted server's document again, so
// those are "not yet"; any other error fails at once.
func fetchOpenAPIV3(t *testing.T, c *framework.Cluster, gv string) map[string]any {
	t.Helper()
	var (
		doc   map[string]any
		fatal error
	)
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		raw, err := c.Client.Discovery().RESTClient().Get().AbsPath("/openapi/v3/apis/" + gv).DoRaw(context.Background())
		switch {
		case err == nil:
		case apierrors.IsNotFound(err), apierrors.IsServiceUnavailable(err),
			utilnet.IsConnectionRefused(err), utilnet.IsConnectionReset(err), utilnet.IsProbableEOF(err):
			return false, fmt.Errorf("fetching the OpenAPI v3 of %s: %w", gv, err)
		default:
			fatal = fmt.Errorf("fetching the OpenAPI v3 of %s: %w", gv, err)
			return true, nil
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			fatal = fmt.Errorf("decoding the OpenAPI v3 of %s: %w", gv, err)
		}
		return true, nil
	})
	if fatal != nil {
		t.Fatal(fatal)
	}
	return doc
}

// Every golden file has a row or a reason not to be served, so a kind
// OpenKruise adds is never skipped silently.
func TestFieldParityCoversEveryGolden(t *testing.T) {
	known := map[string]bool{}
	for _, r := range parityRows {
		known[r.golden()] = true
	}
	for r := range notServed {
		known[r.golden()] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "openkruise", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if b := filepath.Base(f); b != "exceptions.txt" && !known[b] {
			t.Errorf("%s has no row in parityRows or notServed", b)
		}
	}
}

type parityRow struct{ group, version, kind string }

func (r parityRow) String() string { return r.group + "/" + r.version + " " + r.kind }
func (r parityRow) golden() string { return r.group + "_" + r.version + "_" + r.kind + ".txt" }

// parityRows are the kinds and versions kruise-apiserver serves.
var parityRows = []parityRow{
	{"apps.kruise.io", "v1alpha1", "AdvancedCronJob"},
	{"apps.kruise.io", "v1alpha1", "BroadcastJob"},
	{"apps.kruise.io", "v1alpha1", "CloneSet"},
	{"apps.kruise.io", "v1alpha1", "ContainerRecreateRequest"},
	{"apps.kruise.io", "v1alpha1", "DaemonSet"},
	{"apps.kruise.io", "v1alpha1", "EphemeralJob"},
	{"apps.kruise.io", "v1alpha1", "ImageListPullJob"},
	{"apps.kruise.io", "v1alpha1", "ImagePullJob"},
	{"apps.kruise.io", "v1alpha1", "NodeImage"},
	{"apps.kruise.io", "v1alpha1", "NodePodProbe"},
	{"apps.kruise.io", "v1alpha1", "PersistentPodState"},
	{"apps.kruise.io", "v1alpha1", "PodProbeMarker"},
	{"apps.kruise.io", "v1alpha1", "ResourceDistribution"},
	{"apps.kruise.io", "v1alpha1", "SidecarSet"},
	{"apps.kruise.io", "v1alpha1", "StatefulSet"},
	{"apps.kruise.io", "v1alpha1", "UnitedDeployment"},
	{"apps.kruise.io", "v1alpha1", "WorkloadSpread"},
	{"apps.kruise.io", "v1beta1", "AdvancedCronJob"},
	{"apps.kruise.io", "v1beta1", "BroadcastJob"},
	{"apps.kruise.io", "v1beta1", "CloneSet"},
	{"apps.kruise.io", "v1beta1", "ContainerRecreateRequest"},
	{"apps.kruise.io", "v1beta1", "DaemonSet"},
	{"apps.kruise.io", "v1beta1", "EphemeralJob"},
	{"apps.kruise.io", "v1beta1", "ImageListPullJob"},
	{"apps.kruise.io", "v1beta1", "ImagePullJob"},
	{"apps.kruise.io", "v1beta1", "NodeImage"},
	{"apps.kruise.io", "v1beta1", "NodePodProbe"},
	{"apps.kruise.io", "v1beta1", "PersistentPodState"},
	{"apps.kruise.io", "v1beta1", "PodProbeMarker"},
	{"apps.kruise.io", "v1beta1", "ResourceDistribution"},
	{"apps.kruise.io", "v1beta1", "SidecarSet"},
	{"apps.kruise.io", "v1beta1", "StatefulSet"},
	{"apps.kruise.io", "v1beta1", "UnitedDeployment"},
	{"apps.kruise.io", "v1beta1", "WorkloadSpread"},
	{"policy.kruise.io", "v1alpha1", "PodUnavailableBudget"},
	{"policy.kruise.io", "v1beta1", "PodUnavailableBudget"},
}

// notServed are OpenKruise kinds (or versions of a kind) Kruise Native does not serve
// at all, with the reason.
var notServed = map[parityRow]string{}

func readGolden(t *testing.T, r parityRow) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "openkruise", r.golden()))
	if err != nil {
		t.Fatalf("golden of %s: %v (regenerate with hack/openkruise-fields/update.sh)", r, err)
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// readExceptions reads "group/version Kind path reason..." lines; a line without a
// reason fails the test.
func readExceptions(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "openkruise", "exceptions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			t.Fatalf("exceptions.txt:%d: want group/version Kind path reason, got %q", i+1, line)
		}
		out[f[0]+" "+f[1]+" "+f[2]] = strings.Join(f[3:], " ")
	}
	return out
}

// servedPaths walks the served schema of r's kind: properties, array items and map
// values, through $ref (also wrapped in allOf), stopping at Kubernetes' own types.
func servedPaths(doc map[string]any, r parityRow) (map[string]bool, error) {
	schemas, _ := dig(doc, "components", "schemas").(map[string]any)
	var root string
	for name, s := range schemas {
		gvks, _ := dig(s, "x-kubernetes-group-version-kind").([]any)
		for _, g := range gvks {
			m, _ := g.(map[string]any)
			if m["group"] == r.group && m["version"] == r.version && m["kind"] == r.kind {
				root = name
			}
		}
	}
	if root == "" {
		return nil, fmt.Errorf("no schema for %s in the served OpenAPI v3", r)
	}
	out := map[string]bool{}
	var walk func(s any, prefix string, seen map[string]bool)
	walk = func(s any, prefix string, seen map[string]bool) {
		m, _ := s.(map[string]any)
		if m == nil {
			return
		}
		if ref := refOf(m); ref != "" {
			if strings.HasPrefix(ref, "io.k8s.") || seen[ref] {
				return
			}
			next := map[string]bool{ref: true}
			for k := range seen {
				next[k] = true
			}
			walk(schemas[ref], prefix, next)
			return
		}
		props, _ := m["properties"].(map[string]any)
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if prefix == "" && (n == "metadata" || n == "apiVersion" || n == "kind") {
				continue
			}
			p := n
			if prefix != "" {
				p = prefix + "." + n
			}
			out[p] = true
			walk(props[n], p, seen)
		}
		walk(m["items"], prefix, seen)
		walk(m["additionalProperties"], prefix, seen)
	}
	walk(schemas[root], "", map[string]bool{root: true})
	return out, nil
}

// refOf is the schema name a $ref (or an allOf holding one $ref) points to.
func refOf(m map[string]any) string {
	if ref, ok := m["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	if all, ok := m["allOf"].([]any); ok && len(all) == 1 {
		if inner, ok := all[0].(map[string]any); ok {
			return refOf(inner)
		}
	}
	return ""
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
