package containerd

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// privateRepoPrefix is the repository namespace the test registry guards with
// basic auth; everything else is anonymous.
const privateRepoPrefix = "kruise/private/"

// testRegistry is an in-memory OCI distribution registry on 127.0.0.1 (plain
// HTTP), with basic auth on privateRepoPrefix and a record of what it was asked
// for, so tests can tell a pull from a cache hit and see the credentials that
// reached it.
type testRegistry struct {
	host     string // 127.0.0.1:port, as it appears in image names
	user     string
	password string
	srv      *httptest.Server

	mu        sync.Mutex
	manifests map[string]int // "repo:ref" → manifest requests (HEAD or GET)
	basicSeen map[string]int // user → private requests that carried valid credentials
	rejected  int            // private requests answered 401
}

func startRegistry(t *testing.T, user, password string) *testRegistry {
	t.Helper()
	r := &testRegistry{
		user:      user,
		password:  password,
		manifests: map[string]int{},
		basicSeen: map[string]int{},
	}
	// httptest listens on 127.0.0.1 only.
	r.srv = httptest.NewServer(r.wrap(registry.New(registry.Logger(log.New(io.Discard, "", 0)))))
	t.Cleanup(r.srv.Close)
	r.host = strings.TrimPrefix(r.srv.URL, "http://")
	return r
}

// ref returns the image name of repo:tag in this registry.
func (r *testRegistry) ref(repoTag string) string { return r.host + "/" + repoTag }

// wrap records manifest requests and enforces basic auth on private
// repositories, answering 401 with a Basic challenge as a real registry does;
// containerd then retries with the credentials the CRI request carried.
func (r *testRegistry) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		path := strings.TrimPrefix(req.URL.Path, "/v2/")
		// Only reads are counted: the test's own pushes are not pulls.
		read := req.Method == http.MethodGet || req.Method == http.MethodHead
		if repo, ref, ok := strings.Cut(path, "/manifests/"); ok && read && path != req.URL.Path {
			r.mu.Lock()
			r.manifests[repo+":"+ref]++
			r.mu.Unlock()
		}
		if strings.HasPrefix(path, privateRepoPrefix) {
			user, pass, ok := req.BasicAuth()
			if !ok || user != r.user || pass != r.password {
				r.mu.Lock()
				r.rejected++
				r.mu.Unlock()
				w.Header().Set("WWW-Authenticate", `Basic realm="kruise-test"`)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = io.WriteString(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`)
				return
			}
			if read {
				r.mu.Lock()
				r.basicSeen[user]++
				r.mu.Unlock()
			}
		}
		next.ServeHTTP(w, req)
	})
}

// manifestRequests returns how often repo:ref's manifest was asked for.
func (r *testRegistry) manifestRequests(repoTag string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.manifests[repoTag]
}

// authStats returns the private requests accepted for user and those rejected.
func (r *testRegistry) authStats(user string) (accepted, rejected int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.basicSeen[user], r.rejected
}

// push uploads img as repo:tag with the distribution API (monolithic blob
// uploads, then the manifest), using the registry's credentials.
func (r *testRegistry) push(repoTag string, img v1.Image) error {
	repo, tag, ok := strings.Cut(repoTag, ":")
	if !ok {
		return fmt.Errorf("push %q: want repo:tag", repoTag)
	}
	layers, err := img.Layers()
	if err != nil {
		return fmt.Errorf("push %s: layers: %w", repoTag, err)
	}
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return fmt.Errorf("push %s: layer digest: %w", repoTag, err)
		}
		rc, err := l.Compressed()
		if err != nil {
			return fmt.Errorf("push %s: layer %s: %w", repoTag, d, err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			return fmt.Errorf("push %s: layer %s: %w", repoTag, d, err)
		}
		if err := r.pushBlob(repo, d.String(), b); err != nil {
			return fmt.Errorf("push %s: %w", repoTag, err)
		}
	}
	cfgName, err := img.ConfigName()
	if err != nil {
		return fmt.Errorf("push %s: config digest: %w", repoTag, err)
	}
	cfg, err := img.RawConfigFile()
	if err != nil {
		return fmt.Errorf("push %s: config: %w", repoTag, err)
	}
	if err := r.pushBlob(repo, cfgName.String(), cfg); err != nil {
		return fmt.Errorf("push %s: %w", repoTag, err)
	}
	mt, err := img.MediaType()
	if err != nil {
		return fmt.Errorf("push %s: media type: %w", repoTag, err)
	}
	manifest, err := img.RawManifest()
	if err != nil {
		return fmt.Errorf("push %s: manifest: %w", repoTag, err)
	}
	return r.do(http.MethodPut, "/v2/"+repo+"/manifests/"+tag, string(mt), manifest, http.StatusCreated)
}

func (r *testRegistry) pushBlob(repo, digest string, b []byte) error {
	return r.do(http.MethodPost, "/v2/"+repo+"/blobs/uploads/?digest="+digest, "application/octet-stream", b, http.StatusCreated)
}

func (r *testRegistry) do(method, path, contentType string, body []byte, want int) error {
	req, err := http.NewRequest(method, r.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Content-Type", contentType)
	req.SetBasicAuth(r.user, r.password)
	resp, err := r.srv.Client().Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, msg)
	}
	return nil
}
