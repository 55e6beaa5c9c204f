package main

import (
	"os/exec"
	"strings"
	"testing"
)

// devOnly are the packages of kruise-node-daemon-dev's fake runtime: test code that
// must never ship in the production binary.
var devOnly = []string{
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/fakecri",
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/devruntime",
}

// kruise-node-daemon links no fake runtime: it is in cmd/node-daemon-dev only.
func TestLinksNoFakeRuntime(t *testing.T) {
	goBin, err := exec.LookPath("go") // go test puts GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("no go command to list the dependencies with: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps listed %d packages, expected the daemon's whole dependency tree", len(deps))
	}
	for _, dep := range deps {
		for _, bad := range devOnly {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("kruise-node-daemon depends on %s", dep)
			}
		}
	}
}
