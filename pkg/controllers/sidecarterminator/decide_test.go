package sidecarterminator

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

var mark = []corev1.EnvVar{{Name: v1alpha1.KruiseTerminateSidecarEnv, Value: "true"}}

func running() corev1.ContainerState {
	return corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
}

func exited(code int32) corev1.ContainerState {
	return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}
}

// jobPod is a Running pod with restartPolicy Never, a main container "main" and a
// marked sidecar "log", in the given states.
func jobPod(main, log corev1.ContainerState) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1", ResourceVersion: "9"},
		Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{
			{Name: "main", Image: "busybox"},
			{Name: "log", Image: "fluentd", Env: mark},
		}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "main", State: main}, {Name: "log", State: log},
		}},
	}
}

func TestDecide(t *testing.T) {
	with := func(p *corev1.Pod, f func(*corev1.Pod)) *corev1.Pod { f(p); return p }
	end := func(phase corev1.PodPhase, sidecars ...string) Action {
		return Action{End: true, Phase: phase, Sidecars: sidecars}
	}
	cases := []struct {
		name string
		pod  *corev1.Pod
		want Action
	}{
		{"main still running", jobPod(running(), running()), Action{}},
		{"Never: main exited 0", jobPod(exited(0), running()), end(corev1.PodSucceeded, "log")},
		{"Never: main failed ends the pod Failed", jobPod(exited(2), running()), end(corev1.PodFailed, "log")},
		{"OnFailure: main exited 0", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		}), end(corev1.PodSucceeded, "log")},
		{"OnFailure: a failed main is restarted, not finished", with(jobPod(exited(1), running()), func(p *corev1.Pod) {
			p.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		}), Action{}},
		{"Always never finishes", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Spec.RestartPolicy = corev1.RestartPolicyAlways
		}), Action{}},
		{"sidecar terminated already: the kubelet decides", jobPod(exited(0), exited(143)), Action{}},
		{"sidecar waiting counts as not terminated", jobPod(exited(0), corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{}}),
			end(corev1.PodSucceeded, "log")},
		{"mark value is case-insensitive", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Spec.Containers[1].Env = []corev1.EnvVar{{Name: v1alpha1.KruiseTerminateSidecarEnv, Value: "TRUE"}}
		}), end(corev1.PodSucceeded, "log")},
		{"mark false: no sidecar, nothing to do", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Spec.Containers[1].Env = []corev1.EnvVar{{Name: v1alpha1.KruiseTerminateSidecarEnv, Value: "false"}}
		}), Action{}},
		{"only sidecars: no main to finish", with(jobPod(running(), running()), func(p *corev1.Pod) {
			p.Spec.Containers[0].Env = mark
		}), Action{}},
		{"pending", with(jobPod(exited(0), running()), func(p *corev1.Pod) { p.Status.Phase = corev1.PodPending }), Action{}},
		{"already Succeeded", with(jobPod(exited(0), running()), func(p *corev1.Pod) { p.Status.Phase = corev1.PodSucceeded }), Action{}},
		{"already Failed", with(jobPod(exited(0), running()), func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed }), Action{}},
		{"being deleted", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.DeletionTimestamp = &metav1.Time{Time: time.Now()}
		}), Action{}},
		{"a container not reported yet", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Status.ContainerStatuses = p.Status.ContainerStatuses[:1]
		}), Action{}},
		{"two mains: one still running", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "main2"})
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: "main2", State: running()})
		}), Action{}},
		{"two mains, one failed under Never", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "main2"})
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: "main2", State: exited(137)})
		}), end(corev1.PodFailed, "log")},
		{"native sidecar (initContainer, restartPolicy Always) is left to the kubelet", with(jobPod(exited(0), running()), func(p *corev1.Pod) {
			p.Spec.Containers[1].Env = nil
			p.Spec.InitContainers = []corev1.Container{{Name: "proxy", Env: mark, RestartPolicy: ptrTo(corev1.ContainerRestartPolicyAlways)}}
			p.Status.InitContainerStatuses = []corev1.ContainerStatus{{Name: "proxy", State: running()}}
		}), Action{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Decide(tc.pod)
			if got.End != tc.want.End || got.Phase != tc.want.Phase || !slices.Equal(got.Sidecars, tc.want.Sidecars) {
				t.Errorf("Decide = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

// The patch ends the pod as the apiserver applies it: the phase set, the condition
// added next to the others (merged by type), uid and resourceVersion carried.
func TestStatusPatch(t *testing.T) {
	pod := jobPod(exited(0), running())
	pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
	patch, err := statusPatch(pod, corev1.PodSucceeded, metav1.Now())
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := json.Marshal(pod)
	merged, err := strategicpatch.StrategicMergePatch(orig, patch, corev1.Pod{})
	if err != nil {
		t.Fatal(err)
	}
	var out corev1.Pod
	if err := json.Unmarshal(merged, &out); err != nil {
		t.Fatal(err)
	}
	if out.Status.Phase != corev1.PodSucceeded {
		t.Errorf("phase = %s", out.Status.Phase)
	}
	i := slices.IndexFunc(out.Status.Conditions, func(c corev1.PodCondition) bool { return c.Type == v1alpha1.SidecarTerminatedCondition })
	if len(out.Status.Conditions) != 2 || i < 0 || out.Status.Conditions[i].Status != corev1.ConditionTrue {
		t.Errorf("conditions = %+v", out.Status.Conditions)
	}
	var meta struct {
		Metadata map[string]string `json:"metadata"`
	}
	_ = json.Unmarshal(patch, &meta)
	if meta.Metadata["uid"] != "u1" || meta.Metadata["resourceVersion"] != "9" {
		t.Errorf("patch metadata = %v", meta.Metadata)
	}
}
