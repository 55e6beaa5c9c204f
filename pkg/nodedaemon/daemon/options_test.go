package daemon

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(*Options)
		wantErr string
	}{
		{"defaults with a node", func(*Options) {}, ""},
		{"no node name", func(o *Options) { o.NodeName = "" }, "set the environment variable NODE_NAME"},
		{"bad node name", func(o *Options) { o.NodeName = "Node_1" }, `NODE_NAME="Node_1" is not a valid node name`},
		{"zero qps", func(o *Options) { o.QPS = 0 }, "--kube-api-qps"},
		{"no pulls", func(o *Options) { o.MaxConcurrentPulls = 0 }, "--max-concurrent-pulls"},
		{"bad bind address", func(o *Options) { o.BindAddress = "10221" }, "--bind-address"},
		{"no endpoint", func(o *Options) { o.RuntimeEndpoint = "" }, "--runtime-endpoint"},
		{"fake runtime needs no endpoint", func(o *Options) { o.RuntimeEndpoint, o.FakeRuntimeSocket = "", "/tmp/x.sock" }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := NewOptions()
			o.NodeName = "kwok-node-0"
			tc.edit(o)
			err := o.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}
