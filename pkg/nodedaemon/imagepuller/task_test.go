package imagepuller

import (
	"testing"
	"time"

	"k8s.io/utils/ptr"
)

func TestTaskDefaultsAndValidation(t *testing.T) {
	if got := (Task{}).timeout(); got != 600*time.Second {
		t.Errorf("default timeout = %s, want 600s", got)
	}
	if got := (Task{}).backoffLimit(); got != 3 {
		t.Errorf("unset backoffLimit = %d, want the default 3", got)
	}
	if got := (Task{BackoffLimit: ptr.To[int32](0)}).backoffLimit(); got != 0 {
		t.Errorf("backoffLimit 0 = %d, want 0 (no retry)", got)
	}
	for _, bad := range []Task{
		{Image: ""},
		{Image: "Nginx:1"},
		{Image: "nginx", PullPolicy: "Never"},
		{Image: "nginx", ActiveDeadline: -time.Second},
		{Image: "nginx", BackoffLimit: ptr.To[int32](-1)},
	} {
		if err := bad.validate(); err == nil {
			t.Errorf("validate(%+v) = nil, want an error", bad)
		}
	}
	for _, good := range []Task{
		{Image: "nginx:1.9.1"},
		{Image: "nginx", PullPolicy: PullAlways},
		{Image: "nginx", PullPolicy: PullIfNotPresent},
	} {
		if err := good.validate(); err != nil {
			t.Errorf("validate(%+v) = %v", good, err)
		}
	}
}
