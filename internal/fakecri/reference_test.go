package fakecri

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestNormalizeImageRef(t *testing.T) {
	digest := "sha256:" + hex.EncodeToString(make([]byte, 32))
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{in: "nginx", want: "docker.io/library/nginx:latest"},
		{in: "nginx:1.9.1", want: "docker.io/library/nginx:1.9.1"},
		{in: "library/nginx:alpine", want: "docker.io/library/nginx:alpine"},
		{in: "docker.io/library/nginx:1.9.1", want: "docker.io/library/nginx:1.9.1"},
		{in: "openkruise/guestbook:v1", want: "docker.io/openkruise/guestbook:v1"},
		{in: "registry.k8s.io/pause:3.10", want: "registry.k8s.io/pause:3.10"},
		{in: "localhost:5000/app", want: "localhost:5000/app:latest"},
		{in: "nginx@" + digest, want: "docker.io/library/nginx@" + digest},
		{in: "nginx:1.9@" + digest, want: "docker.io/library/nginx@" + digest}, // containerd drops the tag
		{in: " nginx:1.9.1 ", want: "docker.io/library/nginx:1.9.1"},
		{in: "", wantErr: true},
		{in: "Nginx", wantErr: true},
		{in: "nginx:bad tag", wantErr: true},
	}
	for _, tt := range tests {
		got, err := NormalizeImageRef(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("NormalizeImageRef(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if got != tt.want {
			t.Errorf("NormalizeImageRef(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIdentifyIsDeterministic(t *testing.T) {
	ref := "docker.io/library/nginx:1.9.1"
	a, b := identify(ref), identify(ref)
	sum := sha256.Sum256([]byte(ref))
	if want := "sha256:" + hex.EncodeToString(sum[:]); a.id != want {
		t.Errorf("id = %s, want sha256 of the reference %s", a.id, want)
	}
	if a.id != b.id || a.size != b.size || a.repoDigest[0] != b.repoDigest[0] {
		t.Errorf("identify is not deterministic: %+v vs %+v", a, b)
	}
	if len(a.repoTags) != 1 || a.repoTags[0] != ref {
		t.Errorf("repoTags = %v, want [%s]", a.repoTags, ref)
	}
	if want := "docker.io/library/nginx@" + a.id; a.repoDigest[0] != want {
		t.Errorf("repoDigests = %v, want [%s]", a.repoDigest, want)
	}
	if a.size < 5<<20 || a.size > 260<<20 {
		t.Errorf("size %d outside 5..260 MiB", a.size)
	}
	if other := identify("docker.io/library/nginx:1.9.2"); other.id == a.id {
		t.Error("two references share an image ID")
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"nginx", "nginx", true},
		{"nginx", "nginx:1", false},
		{"*", "docker.io/library/nginx:1", true},
		{"*nginx*", "docker.io/library/nginx:1", true},
		{"*/nginx:*", "docker.io/library/nginx:1.9", true},
		{"docker.io/library/busybox*", "docker.io/library/busybox:latest", true},
		{"docker.io/library/busybox*", "docker.io/library/nginx:latest", false},
		{"nginx:1.?", "nginx:1.9", true},
		{"nginx:1.?", "nginx:1.10", false},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false},
		{"", "", true},
		{"", "a", false},
	}
	for _, tt := range tests {
		if got := globMatch(tt.pattern, tt.s); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}
