package features

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"k8s.io/component-base/featuregate"
)

// readmeRow is a row of README.md's feature gate table: the gate, its default here
// (and "(only...)" when one state is refused) and OpenKruise's.
var readmeRow = regexp.MustCompile("(?m)^\\| `([A-Za-z]+)` \\| (on|off)( \\(only[^)]*\\))? \\| (on|off) \\|")

// TestReadmeTable: README.md's table lists every gate with the registry's defaults and
// marks the refused states, so the documentation cannot drift from the binaries.
func TestReadmeTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	onoff := map[bool]string{true: "on", false: "off"}
	seen := map[featuregate.Feature]bool{}
	for _, m := range readmeRow.FindAllStringSubmatch(string(data), -1) {
		name := featuregate.Feature(m[1])
		g, ok := Gates[name]
		if !ok {
			t.Errorf("README lists %s, which is not a gate", name)
			continue
		}
		seen[name] = true
		if m[2] != onoff[g.Default] || m[4] != onoff[g.Upstream.Default] {
			t.Errorf("README: %s here %s, OpenKruise %s; registry: %s, %s", name, m[2], m[4], onoff[g.Default], onoff[g.Upstream.Default])
		}
		if (m[3] != "") != (g.Support != Switchable) {
			t.Errorf("README: %s marked %q, registry: %s", name, m[3], g.Support)
		}
	}
	for name := range Gates {
		if !seen[name] {
			t.Errorf("README's feature gate table has no row for %s", name)
		}
	}
}
