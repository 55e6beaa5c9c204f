package containerd

import (
	"os"
	"os/exec"
	"testing"
)

// optInEnv must be "1" for these tests to run: they start a root daemon, which
// neither `go test ./...` nor `make test` should do behind a developer's back.
const optInEnv = "KRUISE_TEST_CONTAINERD"

// requireContainerd skips unless the test was asked for and containerd is
// installed, and returns the binary's path.
func requireContainerd(t *testing.T) string {
	t.Helper()
	if os.Getenv(optInEnv) != "1" {
		t.Skipf("opt-in test: run `make test-containerd` (or set %s=1 with containerd installed)", optInEnv)
	}
	if os.Geteuid() != 0 {
		t.Skipf("containerd needs root to mount snapshots and run containers; running as uid %d", os.Geteuid())
	}
	bin, err := exec.LookPath("containerd")
	if err != nil {
		t.Skipf("containerd is not installed (`make test-containerd` installs Debian's package): %v", err)
	}
	return bin
}
