package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// versionVar is the variable the linker sets to the release version (pkg/version).
const versionVar = "github.com/kruise-native/kruise-native/pkg/version.gitVersion"

// buildFlags are the go build flags of a release binary. Everything that could differ
// between two builds of the same source is fixed or left out: -trimpath drops the
// checkout's path, -buildvcs=false the commit and dirty flag (the source decides the
// bytes, not where it sits in git history), -buildid= the build ID, -s -w the symbol
// table and DWARF; the version comes from the VERSION file.
func buildFlags(version string) []string {
	return []string{
		"-trimpath",
		"-buildvcs=false",
		"-ldflags=-s -w -buildid= -X " + versionVar + "=" + version,
	}
}

// buildEnv is the environment of a release build: a static binary (no cgo, so no libc
// in the image) for linux/arch.
func buildEnv(arch string) []string {
	return append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
}

// buildBinary compiles pkg (relative to root) into out.
func buildBinary(ctx context.Context, root, pkg, out, version, arch string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	args := append([]string{"build"}, buildFlags(version)...)
	args = append(args, "-o", out, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = buildEnv(arch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	return nil
}
