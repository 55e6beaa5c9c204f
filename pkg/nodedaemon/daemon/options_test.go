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

func TestValidateRuntime(t *testing.T) {
	if err := NewRuntimeOptions().Validate(); err != nil {
		t.Errorf("default runtime: %v", err)
	}
	if err := (&RuntimeOptions{}).Validate(); err == nil || !strings.Contains(err.Error(), "--runtime-endpoint") {
		t.Errorf("no endpoint: %v, want an error naming --runtime-endpoint", err)
	}
}
