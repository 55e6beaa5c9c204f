package kubectlkruise

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

func sidecarPod(annotations map[string]string, containers ...string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: testNS, Annotations: annotations}}
	for _, c := range containers {
		p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: c})
	}
	return p
}

// -S resolves to the working container of a HotUpgrade pair, else to the container of
// that name; any other name fails listing the pod's containers.
func TestSidecarContainer(t *testing.T) {
	hot := map[string]string{pub.SidecarSetWorkingHotUpgradeContainer: `{"envoy":"envoy-2"}`}
	for _, tc := range []struct {
		name    string
		pod     *corev1.Pod
		sidecar string
		want    string
		wantErr string
	}{
		{name: "plain sidecar", pod: sidecarPod(nil, "main", "log-agent"), sidecar: "log-agent", want: "log-agent"},
		{name: "hot upgrade pair", pod: sidecarPod(hot, "main", "envoy-1", "envoy-2"), sidecar: "envoy", want: "envoy-2"},
		{name: "one of the pair by name", pod: sidecarPod(hot, "main", "envoy-1", "envoy-2"), sidecar: "envoy-1", want: "envoy-1"},
		{name: "unreadable annotation", pod: sidecarPod(map[string]string{pub.SidecarSetWorkingHotUpgradeContainer: "{"}, "main", "envoy"), sidecar: "envoy", want: "envoy"},
		{name: "unknown", pod: sidecarPod(nil, "main"), sidecar: "envoy", wantErr: "sidecar envoy is not a container of pod p (nor a HotUpgrade sidecar of it) out of: main"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sidecarContainer(tc.pod, tc.sidecar)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// The wrapped pod choice sets the container kubectl's exec will use from -S, and leaves
// it alone without -S.
func TestExecPodFnSetsContainer(t *testing.T) {
	pod := sidecarPod(map[string]string{pub.SidecarSetWorkingHotUpgradeContainer: `{"envoy":"envoy-1"}`}, "main", "envoy-1", "envoy-2")
	builtin := func(genericclioptions.RESTClientGetter, runtime.Object, time.Duration) (*corev1.Pod, error) {
		return pod, nil
	}
	for _, tc := range []struct{ sidecar, want string }{{"envoy", "envoy-1"}, {"", ""}} {
		var container string
		got, err := execPodFn(builtin, tc.sidecar, &container)(nil, pod, time.Second)
		if err != nil || got != pod || container != tc.want {
			t.Errorf("-S %q: pod %v, container %q, err %v; want container %q", tc.sidecar, got, container, err, tc.want)
		}
	}
}
