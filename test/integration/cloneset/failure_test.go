package cloneset

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// quotaRefusedCreates is kube-apiserver's count of creates its ResourceQuota admission
// refused. Only this package's quota test sets a quota, so the count is that test's
// refused pod creates: kruise-controller's own count of pod creates (refused or not)
// also held the creates its syncs kept sending into namespaces earlier tests left
// being deleted, which pushed the count past the bound on a loaded machine.
func quotaRefusedCreates(t *testing.T) float64 {
	t.Helper()
	return framework.Get(t).KubeAPIServerMetricSum(t, "apiserver_admission_controller_admission_duration_seconds_count",
		`name="ResourceQuota"`, `operation="CREATE"`, `rejected="true"`)
}

func simpleCloneSet(name string, replicas int32) *v1alpha1.CloneSet {
	labels := map[string]string{"app": "failing"}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
		},
	}
}

// A CloneSet whose pods the API server refuses (a quota of zero pods) retries within
// the work queue's backoff, not in a loop: its FailedScale message does not change
// between attempts (no generated pod name in it), and its own status writes do not
// wake it before the backoff is over. Before the fix this made about 600 rejected
// creates in 30 s; the backoff (5 ms doubling) allows about 13.
func TestRefusedCreatesBackOff(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	quota := &corev1.ResourceQuota{
		ObjectMeta: metav1.ObjectMeta{Name: "q"},
		Spec:       corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("0")}},
	}
	if _, err := c.Client.CoreV1().ResourceQuotas(ns).Create(ctx, quota, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		q, err := c.Client.CoreV1().ResourceQuotas(ns).Get(ctx, "q", metav1.GetOptions{})
		return err == nil && len(q.Status.Hard) > 0, err
	})
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(ctx, simpleCloneSet("refused", 3), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := waitStatus(t, ns, "refused", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return failedScale(s) != nil
	})
	if msg := failedScale(cs.Status).Message; !strings.Contains(msg, "exceeded quota") || strings.Contains(msg, "refused-") {
		t.Errorf("FailedScale message %q: want the quota's reason and no generated pod name", msg)
	}

	const window = 30 * time.Second
	const bound = 20
	// The quota refuses every create in the window.
	before := quotaRefusedCreates(t)
	framework.Consistently(t, window, func() (bool, string) {
		n := quotaRefusedCreates(t) - before
		return n <= bound, fmt.Sprintf("%.0f refused pod creates so far", n)
	})
	t.Logf("refused pod creates in %s: %.0f (bound %d)", window, quotaRefusedCreates(t)-before, bound)

	// Room again: the next retry creates the pods.
	if err := c.Client.CoreV1().ResourceQuotas(ns).Delete(ctx, "q", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "refused", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 3 && failedScale(s) == nil
	})
}

func failedScale(s v1alpha1.CloneSetStatus) *v1alpha1.CloneSetCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == v1alpha1.CloneSetConditionFailedScale {
			return &s.Conditions[i]
		}
	}
	return nil
}

// A name whose pods' controller-revision-hash label (<name>-<hash>) cannot fit in 63
// characters is refused at create, naming the field and the limit, instead of being
// stored and failing every pod create.
func TestNameTooLongForRevisionLabel(t *testing.T) {
	ns := framework.Get(t).CreateNamespace(t)
	name := strings.Repeat("n", 60)
	_, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(context.Background(), simpleCloneSet(name, 1), metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("create with a %d-character name: %v, want 422 Invalid", len(name), err)
	}
	if !strings.Contains(err.Error(), "metadata.name") || !strings.Contains(err.Error(), "52") {
		t.Errorf("error %q should name metadata.name and the 52-character limit", err)
	}
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Get(context.Background(), name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("refused CloneSet was stored: get = %v", err)
	}
}
