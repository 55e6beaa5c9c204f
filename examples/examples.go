// Package examples embeds the documented manifests of this folder, so that unit tests
// read the same files users apply without a path relative to the test's directory.
package examples

import (
	"embed"
	"io/fs"
)

// FS holds every manifest of the folder (*.yaml), by base name.
//
//go:embed *.yaml
var FS embed.FS

// Read returns the manifest called name (e.g. "cloneset-basic.yaml").
func Read(name string) ([]byte, error) { return FS.ReadFile(name) }

// Glob returns the names of the manifests matching pattern (path.Match syntax), sorted.
func Glob(pattern string) ([]string, error) { return fs.Glob(FS, pattern) }
