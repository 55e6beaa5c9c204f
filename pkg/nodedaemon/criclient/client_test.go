package criclient

import "testing"

func TestTarget(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"unix:///run/containerd/containerd.sock", "unix:///run/containerd/containerd.sock", ""},
		{"/run/crio/crio.sock", "unix:///run/crio/crio.sock", ""},
		{"unix://", "", "no socket path"},
		{"", "", "empty"},
		{"tcp://10.0.0.1:1234", "", "only unix sockets"},
	}
	for _, tc := range cases {
		got, err := target(tc.in)
		if got != tc.want || (err == nil) != (tc.err == "") {
			t.Errorf("target(%q) = %q, %v; want %q, error %q", tc.in, got, err, tc.want, tc.err)
		}
	}
	if got := SplitContainerID("containerd://abc"); got != "abc" {
		t.Errorf("SplitContainerID = %q", got)
	}
	if got := SplitContainerID("abc"); got != "abc" {
		t.Errorf("SplitContainerID without scheme = %q", got)
	}
}
