package statefulset

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// advanced-statefulset.yaml: `kubectl get asts` prints DESIRED CURRENT UPDATED READY
// AGE; with maxUnavailable 3 and Parallel an image change updates 3 pods at once;
// partition 4 updates only web-4; rollback restores the previous template.
func TestExampleParallelRollout(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	apply(t, ns, readExample(t, "advanced-statefulset.yaml"))
	set := waitStatus(t, ns, "web", 2*time.Minute, settled(5))

	pods := livePods(t, ns)
	if got := ordinals("web", pods); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("ordinals %v, want 0..4", got)
	}
	for _, p := range pods {
		ord := strings.TrimPrefix(p.Name, "web-")
		if p.Spec.Hostname != p.Name || p.Spec.Subdomain != "nginx-headless" {
			t.Errorf("pod %s hostname %q subdomain %q", p.Name, p.Spec.Hostname, p.Spec.Subdomain)
		}
		if p.Labels["statefulset.kubernetes.io/pod-name"] != p.Name || p.Labels["apps.kubernetes.io/pod-index"] != ord ||
			p.Labels["controller-revision-hash"] != set.Status.UpdateRevision {
			t.Errorf("pod %s labels %v", p.Name, p.Labels)
		}
		if ref := metav1.GetControllerOf(&p); ref == nil || ref.APIVersion != "apps.kruise.io/v1beta1" || ref.Kind != "StatefulSet" || ref.UID != set.UID {
			t.Errorf("pod %s controller %+v", p.Name, ref)
		}
	}
	out, _, err := c.Kubectl(t, "get", "asts", "web", "-n", ns)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !slices.Equal(strings.Fields(lines[0]), []string{"NAME", "DESIRED", "CURRENT", "UPDATED", "READY", "AGE"}) ||
		!slices.Equal(strings.Fields(lines[1])[:5], []string{"web", "5", "5", "5", "5"}) {
		t.Fatalf("kubectl get asts:\n%s", out)
	}

	// maxUnavailable 3: three pods are recreated at once, never more.
	rec := recordPods(t, ns, "web-0", "web-1", "web-2", "web-3", "web-4")
	setImage(t, ns, "web", "nginx:1.27")
	v2 := waitStatus(t, ns, "web", 3*time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		return s.UpdateRevision != set.Status.UpdateRevision && settled(5)(s)
	})
	_, deleted, maxDown := rec.result(t)
	if maxDown != 3 {
		t.Errorf("%d pods were down at once, want 3 (maxUnavailable)", maxDown)
	}
	// The three go in one sync, concurrently: their order among themselves is free.
	if len(deleted) != 5 || !slices.Equal(sorted(deleted[:3]), []string{"web-2", "web-3", "web-4"}) {
		t.Errorf("deletions %v, want web-4, web-3, web-2 first", deleted)
	}
	for name, p := range livePods(t, ns) {
		if pods[name].UID == p.UID {
			t.Errorf("pod %s kept its UID under podUpdatePolicy ReCreate", name)
		}
	}

	// partition 4: only web-4 moves to the next revision.
	patchSet(t, ns, "web", `{"spec":{"updateStrategy":{"rollingUpdate":{"partition":4}},"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}`)
	waitStatus(t, ns, "web", 2*time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		return s.UpdateRevision != v2.Status.UpdateRevision && s.UpdatedReadyReplicas == 1 && s.ReadyReplicas == 5
	})
	// Only web-4, and nothing else follows.
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		for name, p := range livePods(t, ns) {
			want := "nginx:1.27"
			if name == "web-4" {
				want = "nginx:1.28"
			}
			if p.Spec.Containers[0].Image != want {
				return false, fmt.Sprintf("pod %s runs %s with partition 4, want %s", name, p.Spec.Containers[0].Image, want)
			}
		}
		return true, ""
	})

	// Rollback to the previous revision (1.27) through the subresource: the set goes
	// back to v2's revision, and web-4 with it.
	body := `{"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSetRollback","name":"web","toRevision":0}`
	if _, err := c.KubectlStdin(t, body, "create", "--raw",
		fmt.Sprintf("/apis/apps.kruise.io/v1beta1/namespaces/%s/statefulsets/web/rollback", ns), "-f", "-"); err != nil {
		t.Fatal(err)
	}
	back := waitStatus(t, ns, "web", 2*time.Minute, settled(5))
	if back.Status.UpdateRevision != v2.Status.UpdateRevision || back.Spec.Template.Spec.Containers[0].Image != "nginx:1.27" {
		t.Fatalf("after rollback: revision %s (want %s), image %s", back.Status.UpdateRevision, v2.Status.UpdateRevision,
			back.Spec.Template.Spec.Containers[0].Image)
	}
	if n := eventReasons(t, ns, "web")["SuccessfulCreate"]; n < 11 {
		t.Errorf("%d SuccessfulCreate events, want at least 11", n)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
