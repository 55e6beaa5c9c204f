package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "db9d326aa1b2c3d4e5f60718293a4b5c6d7e8f90"
	for _, tc := range []struct {
		name     string
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		// Go >= 1.24 from a checkout: the pseudo-version names the commit already.
		{"pseudo-version", "v0.0.0-20261128125000-db9d326aa1b2", vcs(rev, "false"), "v0.0.0-20261128125000-db9d326aa1b2"},
		{"pseudo-version dirty", "v0.0.0-20261128125000-db9d326aa1b2+dirty", vcs(rev, "true"), "v0.0.0-20261128125000-db9d326aa1b2+dirty"},
		{"tagged release", "v0.1.0", vcs(rev, "false"), "v0.1.0+db9d326aa1b2"},
		{"devel with revision", "(devel)", vcs(rev, "true"), "(devel)+db9d326aa1b2-dirty"},
		{"no vcs stamp", "(devel)", nil, "(devel)"},
		{"go install module@version", "v0.1.0", nil, "v0.1.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fromBuildInfo(tc.main, tc.settings); got != tc.want {
				t.Errorf("fromBuildInfo(%q) = %q, want %q", tc.main, got, tc.want)
			}
		})
	}
}

func TestLinkerVersionWins(t *testing.T) {
	old := gitVersion
	defer func() { gitVersion = old }()
	gitVersion = "v9.9.9"
	if got := Get(); got != "v9.9.9" {
		t.Errorf("Get() = %q, want the linker's v9.9.9", got)
	}
}
