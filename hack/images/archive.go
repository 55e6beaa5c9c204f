package main

import (
	"archive/tar"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The annotations of the image's entry in index.json. containerd's import (`ctr -n
// k8s.io images import`) names the image by io.containerd.image.name, the fully
// qualified reference CRI looks up; OCI tools (skopeo oci-archive:) read ref.name, the
// tag.
const (
	containerdNameAnnotation = "io.containerd.image.name"
	ociRefNameAnnotation     = "org.opencontainers.image.ref.name"
)

// writeOCIArchive writes img as an OCI image layout in a tar file (oci-layout,
// index.json, blobs/sha256/...), named fullName (registry/repository:tag) with tag
// tag. The tar's entries are sorted and timeless, so the file's bytes depend on the
// image only.
func writeOCIArchive(path string, img v1.Image, fullName, tag string) error {
	entries, err := layoutEntries(img, fullName, tag)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	tw := tar.NewWriter(f)
	for _, e := range entries {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), ModTime: epoch, Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			f.Close()
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			f.Close()
			return err
		}
	}
	if err := tw.Close(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

type entry struct {
	name string
	data []byte
}

// layoutEntries are the files of an OCI image layout holding img alone, sorted.
func layoutEntries(img v1.Image, fullName, tag string) ([]entry, error) {
	manifest, err := img.RawManifest()
	if err != nil {
		return nil, err
	}
	digest, err := img.Digest()
	if err != nil {
		return nil, err
	}
	mt, err := img.MediaType()
	if err != nil {
		return nil, err
	}
	config, err := img.RawConfigFile()
	if err != nil {
		return nil, err
	}
	cfgName, err := img.ConfigName()
	if err != nil {
		return nil, err
	}
	blobs := map[v1.Hash][]byte{digest: manifest, cfgName: config}
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return nil, err
		}
		rc, err := l.Compressed()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		blobs[d] = data
	}
	index := v1.IndexManifest{
		SchemaVersion: 2,
		MediaType:     types.OCIImageIndex,
		Manifests: []v1.Descriptor{{
			MediaType: mt,
			Size:      int64(len(manifest)),
			Digest:    digest,
			Annotations: map[string]string{
				containerdNameAnnotation: fullName,
				ociRefNameAnnotation:     tag,
			},
		}},
	}
	indexJSON, err := json.Marshal(index)
	if err != nil {
		return nil, err
	}
	out := []entry{
		{name: "oci-layout", data: []byte(`{"imageLayoutVersion":"1.0.0"}`)},
		{name: "index.json", data: indexJSON},
	}
	for h, data := range blobs {
		out = append(out, entry{name: filepath.ToSlash(filepath.Join("blobs", h.Algorithm, h.Hex)), data: data})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	for _, e := range out {
		if e.name == "" {
			return nil, fmt.Errorf("empty entry name")
		}
	}
	return out, nil
}
