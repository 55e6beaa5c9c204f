package imagepuller

import (
	"strings"
	"testing"
)

func TestNormalizeReference(t *testing.T) {
	digest := "sha256:" + strings.Repeat("ab", 32)
	cases := []struct {
		in, want string
	}{
		{"nginx:1.9.1", "docker.io/library/nginx:1.9.1"},
		{"nginx", "docker.io/library/nginx:latest"},
		{"library/nginx:1.9.1", "docker.io/library/nginx:1.9.1"},
		{"docker.io/nginx:1.9.1", "docker.io/library/nginx:1.9.1"},
		{"index.docker.io/library/nginx", "docker.io/library/nginx:latest"},
		{"openkruise/kruise-manager:v1.5.0", "docker.io/openkruise/kruise-manager:v1.5.0"},
		{"ghcr.io/openkruise/kruise:v1", "ghcr.io/openkruise/kruise:v1"},
		{"localhost/app", "localhost/app:latest"},
		{"localhost:5000/app:dev", "localhost:5000/app:dev"},
		{"registry.example.com:5000/team/sub/app:1.0", "registry.example.com:5000/team/sub/app:1.0"},
		{"Registry.Example.com/app:1", "Registry.Example.com/app:1"},
		{"[::1]:5000/app:1", "[::1]:5000/app:1"},
		{"nginx@" + digest, "docker.io/library/nginx@" + digest},
		{"nginx:1.9.1@" + digest, "docker.io/library/nginx:1.9.1@" + digest},
		{"my_app-x/a__b.c:Tag_1.2-rc", "docker.io/my_app-x/a__b.c:Tag_1.2-rc"},
	}
	for _, tc := range cases {
		got, err := NormalizeReference(tc.in)
		if err != nil {
			t.Errorf("NormalizeReference(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("NormalizeReference(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseReferenceParts(t *testing.T) {
	digest := "sha256:" + strings.Repeat("0f", 32)
	cases := []struct {
		in   string
		want Reference
	}{
		{"nginx", Reference{Domain: "docker.io", Path: "library/nginx"}},
		{"nginx:1.9.1", Reference{Domain: "docker.io", Path: "library/nginx", Tag: "1.9.1"}},
		{"reg:5000/a/b", Reference{Domain: "reg:5000", Path: "a/b"}},
		{"reg:5000/a/b:7", Reference{Domain: "reg:5000", Path: "a/b", Tag: "7"}},
		{"quay.io/a/b:t@" + digest, Reference{Domain: "quay.io", Path: "a/b", Tag: "t", Digest: digest}},
		{"quay.io/a/b@" + digest, Reference{Domain: "quay.io", Path: "a/b", Digest: digest}},
	}
	for _, tc := range cases {
		got, err := ParseReference(tc.in)
		if err != nil {
			t.Errorf("ParseReference(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("ParseReference(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	if got, _ := ParseReference("quay.io/a/b:t@" + digest); got.Repository() != "quay.io/a/b" {
		t.Errorf("Repository() = %q", got.Repository())
	}
}

func TestParseReferenceInvalid(t *testing.T) {
	for _, in := range []string{
		"",
		":tag",
		"Nginx:1",    // upper case repository
		"nginx:",     // empty tag
		"nginx:-bad", // tag must start with a word character
		"nginx:" + strings.Repeat("t", 129),
		"nginx@sha256:abc", // short digest
		"nginx@sha256:" + strings.Repeat("A", 64), // sha256 is lower-case hex
		"nginx@",    // empty digest
		"a//b",      // empty path component
		"reg.io/",   // no repository
		"-reg.io/a", // bad host
		"a/b_/c",    // separator at the end of a component
		"nginx 1",   // space
		strings.Repeat("a", 256),
	} {
		if r, err := ParseReference(in); err == nil {
			t.Errorf("ParseReference(%q) = %+v, want an error", in, r)
		}
	}
}
