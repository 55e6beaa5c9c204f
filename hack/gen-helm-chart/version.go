package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// readVersion is the release version of the VERSION file (without the tag's "v").
func readVersion(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(data))
	if !regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`).MatchString(v) {
		return "", fmt.Errorf("VERSION %q is not a semantic version such as 0.1.0", v)
	}
	return v, nil
}

// ownImage matches our images in the kustomize sources and output.
var ownImage = regexp.MustCompile(`(image: kruise-native/[a-z-]+):([A-Za-z0-9._-]+)`)

// checkImageTags fails unless every image of ours in objs is tagged tag.
func checkImageTags(objs []object, dir, tag string) error {
	for _, o := range objs {
		text, err := template(o)
		if err != nil {
			return err
		}
		for _, m := range ownImage.FindAllStringSubmatch(text, -1) {
			if m[2] != tag {
				return fmt.Errorf("%s: %s is tagged %s, VERSION says %s; run `make chart`", dir, strings.TrimPrefix(m[1], "image: "), m[2], tag)
			}
		}
	}
	return nil
}

// syncImageTags rewrites the tag of our images in the kustomize sources under
// artifacts/deploy to tag, so that VERSION alone decides it (make chart).
func syncImageTags(root, tag string) error {
	return filepath.WalkDir(filepath.Join(root, "artifacts/deploy"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		next := ownImage.ReplaceAllString(string(data), "${1}:"+tag)
		if next == string(data) {
			return nil
		}
		fmt.Printf("gen-helm-chart: %s: images tagged %s (VERSION)\n", path, tag)
		return os.WriteFile(path, []byte(next), 0o644)
	})
}
