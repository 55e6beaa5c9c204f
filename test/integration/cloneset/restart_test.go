package cloneset

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// kruise-controller killed in the middle of a 200-pod rollout and started again: the
// rollout finishes with exactly the desired pods, none duplicated, none lost.
func TestControllerRestartMidRollout(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	const n = 200
	labels := map[string]string{"app": "restart"}
	cs := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "restart"},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](n),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
		},
	}
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	v1 := waitStatus(t, ns, "restart", 5*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.ReadyReplicas == n
	})
	// A recreate rollout (deletes and creates: what duplicates or loses pods if the
	// controller trusted a stale cache after its restart).
	if _, err := client.Patch(ctx, "restart", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.26"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "restart", 5*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != v1.Status.UpdateRevision && s.UpdatedReplicas >= n/5 && s.UpdatedReplicas < n*3/4
	})
	c.StopComponent(t, "kruise-controller")
	c.StartComponent(t, "kruise-controller")

	done := waitStatus(t, ns, "restart", 8*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdatedReadyReplicas == n && s.Replicas == n && s.CurrentRevision == s.UpdateRevision
	})
	// Terminating pods go away too; then exactly n pods remain, all updated.
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=restart"})
		if err != nil {
			return false, err
		}
		return len(list.Items) == n, nil
	})
	ids := map[string]bool{}
	for _, p := range podsOf(t, ns, done) {
		if p.Labels["controller-revision-hash"] != done.Status.UpdateRevision {
			t.Errorf("pod %s still at revision %s", p.Name, p.Labels["controller-revision-hash"])
		}
		id := p.Labels["apps.kruise.io/cloneset-instance-id"]
		if ids[id] {
			t.Errorf("instance id %s used twice", id)
		}
		ids[id] = true
	}
}

// With a second kruise-controller running, only the Lease holder acts: the other is
// not ready and has started no controller.
func TestOnlyTheLeaderActs(t *testing.T) {
	c := framework.Get(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, filepath.Join(c.BinDir, "kruise-controller"),
		"--kubeconfig="+filepath.Join(c.LocalDir, "kubeconfigs", "kruise-controller.kubeconfig"),
		"--bind-address="+addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })

	get := func(path string) (int, string, error) {
		resp, err := http.Get(fmt.Sprintf("http://%s%s", addr, path))
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		var b strings.Builder
		_, _ = fmt.Fprint(&b, "")
		buf := make([]byte, 1<<20)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String(), nil
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		code, _, err := get("/healthz")
		return code == http.StatusOK, err
	})
	// Give the standby a few lease retry periods (2 s each) to (wrongly) take over.
	deadline := time.Now().Add(8 * time.Second)
	for time.Now().Before(deadline) {
		code, _, err := get("/readyz")
		if err != nil {
			t.Fatal(err)
		}
		if code == http.StatusOK {
			t.Fatal("the standby kruise-controller reports ready while the leader runs")
		}
		time.Sleep(time.Second)
	}
	_, metrics, err := get("/metrics")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(metrics, `workqueue_adds_total{name="cloneset"}`) {
		t.Fatal("the standby kruise-controller has a running CloneSet queue")
	}
	lease, err := c.Client.CoordinationV1().Leases("kruise-system").Get(context.Background(), "kruise-controller", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "" {
		t.Fatal("no kruise-controller holds the lease")
	}
}
