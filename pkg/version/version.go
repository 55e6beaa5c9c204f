// Package version tells which release a binary is. Release builds (make images) set it
// at link time from the repository's VERSION file:
//
//	-ldflags "-X github.com/kruise-native/kruise-native/pkg/version.gitVersion=v0.1.0"
//
// Other builds (go build, go install, make build) report what the go command stamped
// into the binary: the module version, which for a build from a checkout already names
// the commit (v0.0.0-<time>-<revision>[+dirty]).
package version

import (
	"runtime/debug"
	"strings"
)

// gitVersion is set by the linker for release builds; empty otherwise.
var gitVersion = ""

// Get is the binary's version: the release's, or the go command's stamp.
func Get() string {
	if gitVersion != "" {
		return gitVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	return fromBuildInfo(info.Main.Version, info.Settings)
}

// fromBuildInfo is the version of a binary built by the go command: its module version
// when that names a release or a commit, else "(devel)" with the VCS revision. Since Go
// 1.24 the module version of a build from a checkout is a pseudo-version that already
// ends in the revision (and +dirty), so the revision is added only where it is missing.
func fromBuildInfo(mainVersion string, settings []debug.BuildSetting) string {
	var rev string
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := mainVersion
	if v == "" {
		v = "(devel)"
	}
	if rev == "" || strings.Contains(v, rev) {
		return v
	}
	v += "+" + rev
	if dirty {
		v += "-dirty"
	}
	return v
}
