package machine

import (
	"os/exec"
	"strings"
)

// GitCommit names the repository's commit a run measured (short hash), saying so when
// the tree had uncommitted changes; "unknown" outside a git checkout.
func GitCommit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	commit := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		commit += " (tree had uncommitted changes)"
	}
	return commit
}
