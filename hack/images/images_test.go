package main

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// fakeBinary stands in for a compiled binary: the image does not look inside it.
var fakeBinary = []byte("\x7fELF fake static binary")

// Two builds from the same binary and version give the same image digest and the
// same archive bytes; a different binary gives a different digest.
func TestImagesAreReproducible(t *testing.T) {
	dir := t.TempDir()
	digests := map[string]bool{}
	var archives [][]byte
	for i := range 2 {
		img, err := buildImage(images[0], fakeBinary, "v0.1.0", "amd64")
		if err != nil {
			t.Fatal(err)
		}
		d, err := img.Digest()
		if err != nil {
			t.Fatal(err)
		}
		digests[d.String()] = true
		file := filepath.Join(dir, "build"+string(rune('0'+i))+".tar")
		if err := writeOCIArchive(file, img, "docker.io/kruise-native/kruise-apiserver:v0.1.0", "v0.1.0"); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, data)
	}
	if len(digests) != 1 {
		t.Errorf("two builds gave the digests %v, want one", digests)
	}
	if !bytes.Equal(archives[0], archives[1]) {
		t.Error("two builds wrote different archives")
	}
	other, err := buildImage(images[0], append([]byte(nil), append(fakeBinary, '!')...), "v0.1.0", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := other.Digest(); digests[d.String()] {
		t.Error("a different binary gave the same digest")
	}
}

// Each image runs its binary as the entrypoint, as the user its spec names: nonroot
// (65532) for all but the node daemon, which needs the root-owned CRI socket.
func TestImageConfig(t *testing.T) {
	wantUser := map[string]string{
		"kruise-apiserver":   "65532:65532",
		"kruise-controller":  "65532:65532",
		"kruise-node-daemon": "0:0",
		"pause":              "65532:65532",
	}
	if len(images) != len(wantUser) {
		t.Fatalf("%d images, want %d", len(images), len(wantUser))
	}
	for _, s := range images {
		img, err := buildImage(s, fakeBinary, "v0.1.0", "arm64")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Config.User != wantUser[s.name] {
			t.Errorf("%s: user %q, want %q", s.name, cfg.Config.User, wantUser[s.name])
		}
		if want := []string{"/usr/local/bin/" + s.name}; !reflect.DeepEqual(cfg.Config.Entrypoint, want) {
			t.Errorf("%s: entrypoint %v, want %v", s.name, cfg.Config.Entrypoint, want)
		}
		if cfg.OS != "linux" || cfg.Architecture != "arm64" {
			t.Errorf("%s: platform %s/%s, want linux/arm64", s.name, cfg.OS, cfg.Architecture)
		}
		if cfg.Config.Labels["org.opencontainers.image.version"] != "v0.1.0" {
			t.Errorf("%s: labels %v lack the version", s.name, cfg.Config.Labels)
		}
		if !cfg.Created.Time.Equal(epoch) {
			t.Errorf("%s: created %v, want the fixed %v", s.name, cfg.Created, epoch)
		}
		files := layerContents(t, img)
		if got := files["usr/local/bin/"+s.name]; !bytes.Equal(got.data, fakeBinary) || got.mode != 0o755 {
			t.Errorf("%s: the binary is not in the layer as /usr/local/bin/%s (0755)", s.name, s.name)
		}
		if !strings.Contains(string(files["etc/passwd"].data), "nonroot:x:65532:65532:") {
			t.Errorf("%s: /etc/passwd lacks nonroot", s.name)
		}
		if files["tmp/"].mode != 0o1777 {
			t.Errorf("%s: /tmp mode %o, want 1777", s.name, files["tmp/"].mode)
		}
	}
}

// layerContents reads the image's only layer: name -> file (mode, data).
func layerContents(t *testing.T, img v1.Image) map[string]file {
	t.Helper()
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers %d, %v; want 1", len(layers), err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	out := map[string]file{}
	tr := tar.NewReader(rc)
	var prev string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name < prev {
			t.Errorf("layer entries not sorted: %s after %s", h.Name, prev)
		}
		prev = h.Name
		if !h.ModTime.Equal(epoch) {
			t.Errorf("%s: mtime %v, want %v", h.Name, h.ModTime, epoch)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = file{name: h.Name, mode: h.Mode, data: data}
	}
}

// The archive is an OCI image layout that go-containerregistry reads back as the same
// image, and its index names the image the way containerd's import expects.
func TestOCIArchiveReadsBack(t *testing.T) {
	img, err := buildImage(images[1], fakeBinary, "v0.1.0", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := img.Digest()
	dir := t.TempDir()
	file := filepath.Join(dir, "img.oci.tar")
	if err := writeOCIArchive(file, img, "docker.io/kruise-native/kruise-controller:v0.1.0", "v0.1.0"); err != nil {
		t.Fatal(err)
	}
	unpacked := filepath.Join(dir, "layout")
	untar(t, file, unpacked)
	idx, err := layout.ImageIndexFromPath(unpacked)
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Manifests) != 1 {
		t.Fatalf("index has %d manifests, want 1", len(im.Manifests))
	}
	desc := im.Manifests[0]
	if desc.Digest != want {
		t.Errorf("index names %s, want %s", desc.Digest, want)
	}
	if desc.Annotations[containerdNameAnnotation] != "docker.io/kruise-native/kruise-controller:v0.1.0" || desc.Annotations[ociRefNameAnnotation] != "v0.1.0" {
		t.Errorf("index annotations %v", desc.Annotations)
	}
	back, err := idx.Image(want)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := back.Digest(); d != want {
		t.Errorf("read back %s, want %s", d, want)
	}
	if err := validateLayers(back); err != nil {
		t.Error(err)
	}
}

// validateLayers reads every layer back, which checks its digest against the manifest.
func validateLayers(img v1.Image) error {
	layers, err := img.Layers()
	if err != nil {
		return err
	}
	for _, l := range layers {
		rc, err := l.Compressed()
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, rc); err != nil {
			return err
		}
		if err := rc.Close(); err != nil {
			return err
		}
	}
	return nil
}

func untar(t *testing.T, file, dir string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, h.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// push writes the image to a registry (go-containerregistry's in-memory one on
// 127.0.0.1), from which it pulls back with the same digest and config.
func TestPushToRegistry(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: registry.New(registry.Logger(log.New(io.Discard, "", 0)))}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	img, err := buildImage(images[2], fakeBinary, "v0.1.0", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := img.Digest()
	ref := ln.Addr().String() + "/kruise-native/kruise-node-daemon:v0.1.0"
	if err := push(context.Background(), img, ref, false); err != nil {
		t.Fatal(err)
	}
	tag, err := name.NewTag(ref)
	if err != nil {
		t.Fatal(err)
	}
	pulled, err := remote.Image(tag)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := pulled.Digest(); d != want {
		t.Errorf("pulled %s, pushed %s", d, want)
	}
	cfg, err := pulled.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Config.User != "0:0" {
		t.Errorf("pulled config user %q", cfg.Config.User)
	}
	if err := validateLayers(pulled); err != nil {
		t.Error(err)
	}
	raw, _ := pulled.RawManifest()
	var m struct {
		MediaType string `json:"mediaType"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.MediaType != "application/vnd.oci.image.manifest.v1+json" {
		t.Errorf("manifest media type %q, %v", m.MediaType, err)
	}
}

// The release flags fix everything that could make two builds differ.
func TestBuildFlags(t *testing.T) {
	got := strings.Join(buildFlags("v0.1.0"), " ")
	for _, want := range []string{"-trimpath", "-buildvcs=false", "-buildid=", "-X " + versionVar + "=v0.1.0"} {
		if !strings.Contains(got, want) {
			t.Errorf("build flags %q lack %q", got, want)
		}
	}
	env := strings.Join(buildEnv("arm64"), " ")
	for _, want := range []string{"CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64"} {
		if !strings.Contains(env, want) {
			t.Errorf("build environment lacks %s", want)
		}
	}
}

// A short name is imported under the name the kubelet asks CRI for.
func TestCRIName(t *testing.T) {
	if got := criName("kruise-native/pause:v0.1.0"); got != "docker.io/kruise-native/pause:v0.1.0" {
		t.Errorf("criName = %q", got)
	}
}
