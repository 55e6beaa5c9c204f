// Package reporoot finds the checkout of this repository that a dev or test program
// runs in: the local stack, the integration and cluster tests and the benchmarks read
// binaries, manifests and examples relative to it.
package reporoot

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Module is the repository's Go module path: the root is the directory whose go.mod
// declares it (hack/tools and hack/tools/helm have go.mod files of their own).
const Module = "github.com/kruise-native/kruise-native"

// Find walks up from the working directory to the repository root.
func Find() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return FindFrom(dir)
}

// FindFrom walks up from dir to the repository root.
func FindFrom(dir string) (string, error) {
	for start := dir; ; {
		if declaresModule(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of module %s at or above %s", Module, start)
		}
		dir = parent
	}
}

// declaresModule reports whether the go.mod file at path is the repository's.
func declaresModule(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "module ") {
			return strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "module")), `"`) == Module
		}
	}
	return false
}
