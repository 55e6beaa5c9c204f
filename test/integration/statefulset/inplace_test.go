package statefulset

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// advanced-statefulset-inplace.yaml: reserveOrdinals [1] with replicas 5 runs ordinals
// 0,2,3,4,5; an image change updates the pods in place (same UIDs, restartCount +1),
// at most 3 at a time; appending 3 to reserveOrdinals moves that pod to ordinal 6.
func TestExampleInPlaceReserveOrdinals(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, ns, readExample(t, "advanced-statefulset-inplace.yaml"))
	set := waitStatus(t, ns, "web", 2*time.Minute, settled(5))
	before := livePods(t, ns)
	if got := ordinals("web", before); !slices.Equal(got, []int{0, 2, 3, 4, 5}) {
		t.Fatalf("ordinals %v, want 0,2,3,4,5", got)
	}

	rec := recordPods(t, ns, "web-0", "web-2", "web-3", "web-4", "web-5")
	setImage(t, ns, "web", "nginx:1.27")
	waitStatus(t, ns, "web", 3*time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		return s.UpdateRevision != set.Status.UpdateRevision && settled(5)(s)
	})
	created, deleted, maxDown := rec.result(t)
	if len(created) != 0 || len(deleted) != 0 {
		t.Errorf("an in-place rollout created %v and deleted %v", created, deleted)
	}
	// The controller patches up to three pods in one sync; the fake kubelet may finish
	// the first before the third is patched, so two at once is also possible.
	if maxDown > 3 || maxDown < 2 {
		t.Errorf("%d pods were updating at once, want 2 or 3 (maxUnavailable 3)", maxDown)
	}
	after := livePods(t, ns)
	for name, p := range after {
		was := before[name]
		if was.UID != p.UID {
			t.Errorf("pod %s was recreated: in-place updates keep the pod", name)
		}
		if p.Spec.Containers[0].Image != "nginx:1.27" || p.Status.ContainerStatuses[0].RestartCount != was.Status.ContainerStatuses[0].RestartCount+1 {
			t.Errorf("pod %s: image %s restartCount %d (was %d)", name, p.Spec.Containers[0].Image,
				p.Status.ContainerStatuses[0].RestartCount, was.Status.ContainerStatuses[0].RestartCount)
		}
		if p.Annotations["apps.kruise.io/inplace-update-state"] == "" {
			t.Errorf("pod %s lacks the in-place update state", name)
		}
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return eventReasons(t, ns, "web")["SuccessfulUpdatePodInPlace"] >= 5, nil
	})

	// Reserving 3 too: its pod goes, ordinal 6 takes its place; replicas stays 5.
	patchSet(t, ns, "web", `{"spec":{"reserveOrdinals":[1,3]}}`)
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		return slices.Equal(ordinals("web", livePods(t, ns)), []int{0, 2, 4, 5, 6}), nil
	})
	waitStatus(t, ns, "web", time.Minute, settled(5))
	out, _, err := c.Kubectl(t, "get", "asts", "web", "-n", ns, "--no-headers")
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(out); len(f) < 5 || !slices.Equal(f[1:5], []string{"5", "5", "5", "5"}) {
		t.Fatalf("kubectl get asts = %q, want DESIRED CURRENT UPDATED READY all 5", out)
	}
}
