package localstack

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// KruiseBins are the binaries the stack runs that this repository builds (`make build`);
// the Kubernetes tools beside them come from `make tools` and change with go.mod only.
var KruiseBins = []string{KruiseAPIServer, KruiseController, NodeDaemonBin}

// CheckFresh reports an error when a Kruise binary in binDir was not built from the
// source tree at root as it is now: it is a symlink to a binary outside binDir (another
// worktree's build), or a non-test Go file under cmd/ or pkg/ (or go.mod, go.sum) is
// newer than it. A stack run on such a binary tests other code than the one under test:
// `go test ./test/integration/...` does not rebuild what it runs (make test-integration
// does), and a feature test run alone then fails as if the feature were broken.
// A binary that is absent is no error here (the stack runs without it, or says so).
func CheckFresh(root, binDir string, bins ...string) error {
	var built []string
	var oldest time.Time
	var oldestBin string
	for _, name := range bins {
		path := filepath.Join(binDir, name)
		l, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if l.Mode()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(path)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if dir, _ := filepath.EvalSymlinks(binDir); filepath.Dir(target) != dir {
				return fmt.Errorf("%s links to %s, a build of another tree: remove the link and run make build", path, target)
			}
		}
		st, err := os.Stat(path)
		if err != nil {
			return err
		}
		built = append(built, name)
		if oldestBin == "" || st.ModTime().Before(oldest) {
			oldest, oldestBin = st.ModTime(), name
		}
	}
	if len(built) == 0 {
		return nil
	}
	newer, err := newerSource(root, oldest)
	if err != nil {
		return err
	}
	if newer != "" {
		return fmt.Errorf("%s is older than %s: run make build (go test does not rebuild the stack's binaries)", filepath.Join(binDir, oldestBin), newer)
	}
	return nil
}

// newerSource is the first source file the binaries are built from that changed after
// t ("" when none did).
func newerSource(root string, t time.Time) (string, error) {
	for _, f := range []string{"go.mod", "go.sum"} {
		if st, err := os.Stat(filepath.Join(root, f)); err == nil && st.ModTime().After(t) {
			return f, nil
		}
	}
	var newer string
	stop := errors.New("found")
	for _, dir := range []string{"cmd", "pkg"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if info.ModTime().After(t) {
				newer, _ = filepath.Rel(root, path)
				return stop
			}
			return nil
		})
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil && !errors.Is(err, stop) {
			return "", err
		}
		if newer != "" {
			return newer, nil
		}
	}
	return "", nil
}
