package ephemeraljob

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A job whose containers still run when activeDeadlineSeconds passes fails: phase
// Failed, completionTime set and the condition JobFailed with reason DeadlineExceeded;
// the container was injected and ran (the pod asks kwok for an hour's run time).
func TestDeadlineExceeded(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "slow", Labels: map[string]string{"app": "slow"},
			Annotations: map[string]string{"ephemeral.kwok.kruise-native.io/run-time": "1h"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "app:v1"}}},
	}
	if _, err := c.Client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	job := &v1alpha1.EphemeralJob{
		ObjectMeta: metav1.ObjectMeta{Name: "slow-debug"},
		Spec: v1alpha1.EphemeralJobSpec{
			Selector:                &metav1.LabelSelector{MatchLabels: map[string]string{"app": "slow"}},
			ActiveDeadlineSeconds:   ptr.To[int64](5),
			TTLSecondsAfterFinished: ptr.To[int32](3600),
			Template: v1alpha1.EphemeralContainerTemplateSpec{EphemeralContainers: []corev1.EphemeralContainer{{
				EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "debugger", Image: "busybox", Command: []string{"sleep", "1d"}},
			}}},
		},
	}
	jobs := kruise(t).AppsV1alpha1().EphemeralJobs(ns)
	created, err := jobs.Create(ctx, job, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	framework.WaitFor(t, time.Minute, func() (bool, error) {
		p, err := c.Client.CoreV1().Pods(ns).Get(ctx, "slow", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := ephemeralStatus(p, "debugger")
		return injected(p, created, "debugger") != nil && s != nil && s.State.Running != nil, nil
	})
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		job, err = jobs.Get(ctx, "slow-debug", metav1.GetOptions{})
		return err == nil && job.Status.Phase == v1alpha1.EphemeralJobFailed, err
	})
	cond := condition(job, v1alpha1.EJobFailed)
	if cond == nil || cond.Status != corev1.ConditionTrue || cond.Reason != "DeadlineExceeded" {
		t.Errorf("conditions %+v: want JobFailed True, DeadlineExceeded", job.Status.Conditions)
	}
	if st := job.Status; st.CompletionTime == nil || st.StartTime == nil || st.CompletionTime.Sub(st.StartTime.Time) < 5*time.Second || st.Matches != 1 {
		t.Errorf("status %+v: want match 1, completion at least 5 s after start", st)
	}
}
