package containerd

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// sleeperPath is where the image keeps the sleeper binary.
const sleeperPath = "/sleeper"

// buildSleeper compiles testdata/sleeper as a static binary into dir. A real
// program is needed because the image must run: as the sandbox (pause)
// image, as the application container and as its preStop hook.
func buildSleeper(ctx context.Context, dir string) (string, error) {
	out := filepath.Join(dir, "sleeper")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./testdata/sleeper")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build sleeper: %w: %s", err, b)
	}
	return out, nil
}

// sleeperImage is a one-layer image holding the sleeper binary as its
// entrypoint, for this machine's platform (containerd refuses to unpack an
// image of another platform). variant goes into a config label, so images of
// different variants share their layer but have different IDs.
func sleeperImage(binary, variant string) (v1.Image, error) {
	bin, err := os.ReadFile(binary)
	if err != nil {
		return nil, fmt.Errorf("sleeper image: %w", err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	// A fixed time keeps the layer digest, and so the image ID, stable.
	mtime := time.Unix(0, 0)
	if err := tw.WriteHeader(&tar.Header{Name: sleeperPath[1:], Mode: 0o755, Size: int64(len(bin)), ModTime: mtime, Typeflag: tar.TypeReg}); err != nil {
		return nil, fmt.Errorf("sleeper image: %w", err)
	}
	if _, err := tw.Write(bin); err != nil {
		return nil, fmt.Errorf("sleeper image: %w", err)
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("sleeper image: %w", err)
	}
	layerBytes := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerBytes)), nil
	})
	if err != nil {
		return nil, fmt.Errorf("sleeper image layer: %w", err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return nil, fmt.Errorf("sleeper image: %w", err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("sleeper image config: %w", err)
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", runtime.GOARCH
	cfg.Config.Entrypoint = []string{sleeperPath}
	cfg.Config.Labels = map[string]string{"io.kruise-native.test.variant": variant}
	img, err = mutate.ConfigFile(img, cfg)
	if err != nil {
		return nil, fmt.Errorf("sleeper image config: %w", err)
	}
	return img, nil
}
