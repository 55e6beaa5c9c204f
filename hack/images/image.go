package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path"
	"sort"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// epoch is every timestamp in an image: file times, the config's created and history.
// A fixed time, so that the same binary always gives the same digest.
var epoch = time.Unix(0, 0).UTC()

// binDir is where the binary lives in the image (on PATH, as in distroless).
const binDir = "/usr/local/bin"

// file is one entry of the image's only layer.
type file struct {
	name string // without a leading slash; a directory ends in "/"
	mode int64
	data []byte
}

// passwd and group name root and nonroot (65532), so that tools which look a uid up
// (and Go's os/user) find one.
const (
	passwd = "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n"
	group  = "root:x:0:\nnonroot:x:65532:\n"
)

// layerFiles are the files of the image of spec s with the binary bin.
func layerFiles(s imageSpec, bin []byte) []file {
	return []file{
		{name: "etc/", mode: 0o755},
		{name: "etc/group", mode: 0o644, data: []byte(group)},
		{name: "etc/passwd", mode: 0o644, data: []byte(passwd)},
		{name: "home/", mode: 0o755},
		{name: "home/nonroot/", mode: 0o700},
		{name: "tmp/", mode: 0o1777},
		{name: "usr/", mode: 0o755},
		{name: "usr/local/", mode: 0o755},
		{name: "usr/local/bin/", mode: 0o755},
		{name: "usr/local/bin/" + s.name, mode: 0o755, data: bin},
	}
}

// layer writes files as a gzip-compressed tar: entries sorted by name, every time
// epoch, owner root except nonroot's home, no user or group names, so its bytes
// depend on the files only.
func layer(files []file) ([]byte, error) {
	sorted := append([]file(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for _, f := range sorted {
		h := &tar.Header{Name: f.name, Mode: f.mode, ModTime: epoch, Format: tar.FormatPAX}
		if path.Clean(f.name) == "home/nonroot" {
			h.Uid, h.Gid = 65532, 65532
		}
		if f.name[len(f.name)-1] == '/' {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(f.data))
		}
		// PAX with only these fields writes no atime/ctime records.
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	// Compressed here rather than by go-containerregistry, at a fixed level; gzip's
	// header carries no name and a zero time.
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return gz.Bytes(), nil
}

// buildImage is the OCI image of spec s with binary bin, for linux/arch, labelled with
// version.
func buildImage(s imageSpec, bin []byte, version, arch string) (v1.Image, error) {
	data, err := layer(layerFiles(s, bin))
	if err != nil {
		return nil, fmt.Errorf("%s: layer: %w", s.name, err)
	}
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("%s: layer: %w", s.name, err)
	}
	base := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	base = mutate.ConfigMediaType(base, types.OCIConfigJSON)
	img, err := mutate.Append(base, mutate.Addendum{
		Layer:     l,
		MediaType: types.OCILayer,
		History:   v1.History{Created: v1.Time{Time: epoch}, CreatedBy: "hack/images: " + s.pkg + " (CGO_ENABLED=0, " + version + ")"},
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("%s: config: %w", s.name, err)
	}
	cfg = cfg.DeepCopy()
	cfg.Created = v1.Time{Time: epoch}
	cfg.OS, cfg.Architecture = "linux", arch
	cfg.Config.Entrypoint = []string{binDir + "/" + s.name}
	cfg.Config.Cmd = nil
	cfg.Config.User = s.user
	cfg.Config.WorkingDir = "/"
	cfg.Config.Env = []string{"PATH=" + binDir + ":/usr/bin:/bin"}
	cfg.Config.Labels = map[string]string{
		"org.opencontainers.image.title":   s.name,
		"org.opencontainers.image.version": version,
	}
	img, err = mutate.ConfigFile(img, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: config: %w", s.name, err)
	}
	return img, nil
}
