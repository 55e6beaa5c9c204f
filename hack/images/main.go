// Command images builds the OCI images of kruise-apiserver, kruise-controller,
// kruise-node-daemon and a pause image (`make images`), offline: each is one layer
// holding a static binary (CGO_ENABLED=0) and /etc/passwd, /etc/group, /tmp, written
// with go-containerregistry onto no base image. The same source and VERSION give the
// same digests (fixed build flags, timestamps and tar order; see build.go, image.go).
//
// Output, under -out (default _output/images):
//
//	<name>_<tag>.oci.tar   an OCI image layout in a tar, importable with
//	                       `ctr -n k8s.io images import` (named docker.io/kruise-native/<name>:<tag>)
//	                       or skopeo (oci-archive:)
//	images.txt             "<reference> <digest> <file>" per image
//	bin/linux_<arch>/      the static binaries
//
// With -registry host[:port] every image is also pushed as
// host[:port]/kruise-native/<name>:<tag> (credentials from ~/.docker/config.json).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
)

func main() {
	root := flag.String("root", ".", "repository root")
	out := flag.String("out", "_output/images", "output directory")
	version := flag.String("version", "", "image tag and version stamped into the binaries (default v<VERSION file>)")
	registry := flag.String("registry", "", "also push the images to this registry (host[:port])")
	insecure := flag.Bool("insecure", false, "push over plain HTTP (always for localhost and 127.0.0.1)")
	arch := flag.String("arch", defaultArch(), "GOARCH of the images")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *root, *out, *version, *registry, *arch, *insecure); err != nil {
		fmt.Fprintln(os.Stderr, "images:", err)
		os.Exit(1)
	}
}

func defaultArch() string {
	if a := os.Getenv("GOARCH"); a != "" {
		return a
	}
	return runtime.GOARCH
}

// readVersion is the image tag of the VERSION file: v<VERSION>.
func readVersion(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil {
		return "", err
	}
	return "v" + strings.TrimSpace(string(data)), nil
}

func run(ctx context.Context, root, out, version, registry, arch string, insecure bool) error {
	if version == "" {
		v, err := readVersion(root)
		if err != nil {
			return err
		}
		version = v
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	binDir := filepath.Join(out, "bin", "linux_"+arch)
	var list strings.Builder
	for _, s := range images {
		bin := filepath.Join(binDir, s.name)
		if err := buildBinary(ctx, root, s.pkg, bin, version, arch); err != nil {
			return err
		}
		data, err := os.ReadFile(bin)
		if err != nil {
			return err
		}
		img, err := buildImage(s, data, version, arch)
		if err != nil {
			return err
		}
		digest, err := img.Digest()
		if err != nil {
			return err
		}
		short := repository + "/" + s.name + ":" + version
		if _, err := name.NewTag(short); err != nil {
			return err
		}
		file := filepath.Join(out, s.name+"_"+version+".oci.tar")
		if err := writeOCIArchive(file, img, criName(short), version); err != nil {
			return fmt.Errorf("%s: %w", short, err)
		}
		rel, _ := filepath.Rel(root, file)
		fmt.Fprintf(&list, "%s %s %s\n", short, digest, rel)
		fmt.Printf("%-40s %s  %s\n", short, digest, rel)
		if registry != "" {
			target := strings.TrimSuffix(registry, "/") + "/" + short
			if err := push(ctx, img, target, insecure); err != nil {
				return err
			}
			fmt.Printf("  pushed %s@%s\n", target, digest)
		}
	}
	return os.WriteFile(filepath.Join(out, "images.txt"), []byte(list.String()), 0o644)
}

// criName is the fully qualified name CRI gives a short image name, and so the one the
// kubelet looks up for `image: kruise-native/<name>:<tag>`: docker.io/kruise-native/...
// (go-containerregistry would say index.docker.io, under which the kubelet finds nothing).
func criName(short string) string {
	return "docker.io/" + short
}
