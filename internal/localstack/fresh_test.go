package localstack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A binary older than a source file, or linked from another tree's build, is refused;
// test files, testdata and absent binaries do not count.
func TestCheckFresh(t *testing.T) {
	base := time.Now().Add(-time.Hour)
	write := func(t *testing.T, path string, mtime time.Time) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	// tree: sources at base, binaries built at base+1m; mutate changes it.
	tree := func(t *testing.T, mutate func(root, bin string)) error {
		root := t.TempDir()
		bin := filepath.Join(root, "_output", "bin")
		write(t, filepath.Join(root, "go.mod"), base)
		write(t, filepath.Join(root, "pkg", "controllers", "daemonset", "plan.go"), base)
		write(t, filepath.Join(root, "cmd", "controller", "main.go"), base)
		write(t, filepath.Join(bin, KruiseController), base.Add(time.Minute))
		write(t, filepath.Join(bin, KruiseAPIServer), base.Add(time.Minute))
		if mutate != nil {
			mutate(root, bin)
		}
		return CheckFresh(root, bin, KruiseBins...)
	}
	for _, tc := range []struct {
		name    string
		mutate  func(root, bin string)
		wantErr string // "" when fresh
	}{
		{name: "built after every source: fresh"},
		{name: "a source edited after the build", wantErr: "older than pkg/controllers/daemonset/scaling.go",
			mutate: func(root, _ string) {
				write(t, filepath.Join(root, "pkg", "controllers", "daemonset", "scaling.go"), base.Add(2*time.Minute))
			}},
		{name: "one binary rebuilt, the other stale", wantErr: "kruise-apiserver is older than",
			mutate: func(root, bin string) {
				write(t, filepath.Join(root, "cmd", "controller", "main.go"), base.Add(2*time.Minute))
				write(t, filepath.Join(bin, KruiseController), base.Add(3*time.Minute))
			}},
		{name: "go.mod changed", wantErr: "older than go.mod",
			mutate: func(root, _ string) { write(t, filepath.Join(root, "go.mod"), base.Add(2*time.Minute)) }},
		{name: "a test file or testdata changed: still fresh",
			mutate: func(root, _ string) {
				write(t, filepath.Join(root, "pkg", "controllers", "daemonset", "plan_test.go"), base.Add(2*time.Minute))
				write(t, filepath.Join(root, "pkg", "x", "testdata", "gen.go"), base.Add(2*time.Minute))
			}},
		{name: "a link to another tree's build", wantErr: "a build of another tree",
			mutate: func(root, bin string) {
				other := filepath.Join(t.TempDir(), KruiseController)
				write(t, other, base.Add(time.Hour))
				_ = os.Remove(filepath.Join(bin, KruiseController))
				if err := os.Symlink(other, filepath.Join(bin, KruiseController)); err != nil {
					t.Fatal(err)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tree(t, tc.mutate)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
	// No Kruise binary built at all: nothing to check.
	if err := CheckFresh(t.TempDir(), filepath.Join(t.TempDir(), "bin"), KruiseBins...); err != nil {
		t.Fatalf("no binaries: %v", err)
	}
}
