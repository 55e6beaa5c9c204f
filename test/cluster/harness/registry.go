package harness

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Registry is an in-memory OCI registry in the test process on 127.0.0.1, the one
// containerd pulls from (as itself and as docker.io's mirror, writeRegistryHosts). It
// holds test images made from testapp: one per reference pushed.
type Registry struct {
	Host string // 127.0.0.1:<port>
	srv  *http.Server
	app  []byte // the testapp binary

	mu     sync.Mutex
	pushed map[string]v1.Hash
}

// startRegistry serves the registry and builds testapp (static) into it.
func startRegistry(ctx context.Context, l Layout) (*Registry, error) {
	bin := l.StatePath("testapp")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, "./test/cluster/testapp")
	cmd.Dir = l.Root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building testapp: %w: %s", err, out)
	}
	app, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &Registry{Host: ln.Addr().String(), app: app, pushed: map[string]v1.Hash{},
		srv: &http.Server{Handler: registry.New(registry.Logger(log.New(io.Discard, "", 0))), ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

func (r *Registry) close() { _ = r.srv.Close() }

// Push makes the test image for ref (e.g. "nginx:alpine", "openkruise/x:v1") and pushes
// it under the same repository and tag to the registry, so that the node pulls ref
// through the docker.io mirror. It returns the image's digest.
func (r *Registry) Push(ctx context.Context, ref string) (v1.Hash, error) {
	parsed, err := name.ParseReference(ref)
	if err != nil {
		return v1.Hash{}, err
	}
	img, err := testImage(r.app, criName(parsed))
	if err != nil {
		return v1.Hash{}, err
	}
	target, err := name.ParseReference(r.Host+"/"+parsed.Context().RepositoryStr()+":"+parsed.Identifier(), name.Insecure)
	if err != nil {
		return v1.Hash{}, err
	}
	if err := remote.Write(target, img, remote.WithContext(ctx)); err != nil {
		return v1.Hash{}, fmt.Errorf("pushing %s: %w", target, err)
	}
	d, err := img.Digest()
	if err != nil {
		return v1.Hash{}, err
	}
	r.mu.Lock()
	r.pushed[criName(parsed)] = d
	r.mu.Unlock()
	return d, nil
}

// criName is the name CRI gives a reference, and so the one kubelet and containerd
// report: docker.io/library/nginx:alpine (go-containerregistry says index.docker.io).
func criName(ref name.Reference) string {
	reg := ref.Context().RegistryStr()
	if reg == name.DefaultRegistry {
		reg = "docker.io"
	}
	sep := ":"
	if _, ok := ref.(name.Digest); ok {
		sep = "@"
	}
	return reg + "/" + ref.Context().RepositoryStr() + sep + ref.Identifier()
}

// Pushed lists the fully qualified references pushed so far.
func (r *Registry) Pushed() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for k := range r.pushed {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// testImage is one layer: testapp as /bin/testapp, /bin/sh and /bin/sleep, and
// /etc/kn-image naming ref, so each reference is a distinct image whose containers say
// which one they run.
func testImage(app []byte, ref string) (v1.Image, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	epoch := time.Unix(0, 0)
	add := func(h *tar.Header, data []byte) error {
		h.ModTime = epoch
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	for _, e := range []struct {
		h    tar.Header
		data []byte
	}{
		{tar.Header{Name: "bin/", Typeflag: tar.TypeDir, Mode: 0o755}, nil},
		{tar.Header{Name: "bin/testapp", Typeflag: tar.TypeReg, Mode: 0o755, Size: int64(len(app))}, app},
		{tar.Header{Name: "bin/sh", Typeflag: tar.TypeSymlink, Linkname: "testapp", Mode: 0o777}, nil},
		{tar.Header{Name: "bin/sleep", Typeflag: tar.TypeSymlink, Linkname: "testapp", Mode: 0o777}, nil},
		{tar.Header{Name: "etc/", Typeflag: tar.TypeDir, Mode: 0o755}, nil},
		{tar.Header{Name: "etc/kn-image", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(ref) + 1)}, []byte(ref + "\n")},
		{tar.Header{Name: "tmp/", Typeflag: tar.TypeDir, Mode: 0o1777}, nil},
	} {
		h := e.h
		if err := add(&h, e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	if err != nil {
		return nil, err
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", runtime.GOARCH
	cfg.Config.Cmd = []string{"/bin/testapp"}
	cfg.Config.Env = []string{"PATH=/bin"}
	cfg.Config.WorkingDir = "/"
	return mutate.ConfigFile(img, cfg)
}
