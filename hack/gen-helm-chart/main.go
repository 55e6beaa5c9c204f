// Command gen-helm-chart generates the Helm chart artifacts/charts/kruise-native from
// the kustomize base artifacts/deploy (and its overlays/single for etcd.mode=single),
// so that the chart and the base cannot drift: the chart's templates are the base's
// objects with the fields in holes.go taken from values, whose defaults are the base's.
// With -verify it fails when the committed chart is not what it would generate. The
// chart's version, appVersion and default image tags come from the VERSION file; without
// -verify the kustomize sources' image tags are first set to it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "repository root")
	out := flag.String("out", "artifacts/charts/kruise-native", "chart directory, relative to -root")
	verify := flag.Bool("verify", false, "only check that the chart is up to date")
	flag.Parse()
	if err := run(*root, filepath.Join(*root, *out), *verify); err != nil {
		fmt.Fprintln(os.Stderr, "gen-helm-chart:", err)
		os.Exit(1)
	}
}

func run(root, dir string, verify bool) error {
	if !verify {
		version, err := readVersion(root)
		if err != nil {
			return err
		}
		if err := syncImageTags(root, "v"+version); err != nil {
			return err
		}
	}
	files, err := chartFiles(root)
	if err != nil {
		return err
	}
	if verify {
		return compare(dir, files)
	}
	if err := os.RemoveAll(filepath.Join(dir, "templates")); err != nil {
		return err
	}
	for _, name := range sortedKeys(files) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// compare reports every generated file that differs from dir, and every template in
// dir that would not be generated.
func compare(dir string, files map[string]string) error {
	var stale []string
	for _, name := range sortedKeys(files) {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, []byte(files[name])) {
			stale = append(stale, name)
		}
	}
	onDisk, _ := filepath.Glob(filepath.Join(dir, "templates", "*"))
	for _, p := range onDisk {
		rel, _ := filepath.Rel(dir, p)
		if _, ok := files[rel]; !ok {
			stale = append(stale, rel+" (not generated)")
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%s is out of date with artifacts/deploy: %v; run `make chart`", dir, stale)
	}
	return nil
}
