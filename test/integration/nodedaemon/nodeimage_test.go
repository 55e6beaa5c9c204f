package nodedaemon

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// imageNode is the node of the image tests (its daemon is restarted by one of them).
const imageNode = "kwok-node-0"

func succeeded(st *v1alpha1.ImageTagStatus) bool { return st.Phase == v1alpha1.ImagePhaseSucceeded }

// The documented NodeImage patch, merged with kubectl: the daemon pulls ubuntu:latest
// and reports it, and `kubectl get nodeimage` shows the counts.
func TestNodeImageExamplePatch(t *testing.T) {
	c := framework.Get(t)
	ensureNodeImage(t, imageNode)
	putsBefore, _ := daemonWrites(t, imageNode)
	example := filepath.Join(c.Root, "examples", "nodeimage-patch.yaml")
	if _, _, err := c.Kubectl(t, "patch", "nodeimage", imageNode, "--type=merge", "--patch-file", example); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _, _ = c.Kubectl(t, "patch", "nodeimage", imageNode, "--type=merge", "-p", `{"spec":{"images":{"ubuntu":null}}}`)
	})

	ni, st := waitTag(t, imageNode, "ubuntu", "latest", time.Minute, succeeded)
	if !strings.HasPrefix(st.ImageID, "sha256:") || st.Progress != 100 || st.StartTime == nil || st.CompletionTime == nil {
		t.Errorf("ubuntu:latest = %s, want Succeeded with an imageID, progress 100 and both times", describe(st))
	}
	if ni.Status.Desired < 1 || ni.Status.Succeeded < 1 || ni.Status.Desired != ni.Status.Succeeded+ni.Status.Failed+ni.Status.Pulling {
		t.Errorf("counts %+v do not add up", ni.Status)
	}
	// A pull that ends at once costs one status write (no Waiting status first).
	puts, _ := daemonWrites(t, imageNode)
	t.Logf("daemon status writes for the pull: %.0f", puts-putsBefore)
	if puts-putsBefore > 2 {
		t.Errorf("%.0f status writes for one fast pull, want at most 2", puts-putsBefore)
	}

	// The runtime has the image under that ID (what crictl images would show).
	_, images := runtimeClient(t, imageNode)
	resp, err := images.ImageStatus(context.Background(), &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: "ubuntu:latest"}})
	if err != nil || resp.GetImage().GetId() != st.ImageID {
		t.Errorf("runtime's ubuntu:latest = %v, %v; want ID %s", resp.GetImage(), err, st.ImageID)
	}

	// kubectl get nodeimage: NAME DESIRED PULLING SUCCEED FAILED AGE, as OpenKruise prints.
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		out, _, err := c.Kubectl(t, "get", "nodeimage", imageNode)
		if err != nil {
			return false, err
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 {
			t.Fatalf("kubectl get nodeimage printed %q", out)
		}
		header, row := strings.Fields(lines[0]), strings.Fields(lines[1])
		if strings.Join(header, " ") != "NAME DESIRED PULLING SUCCEED FAILED AGE" {
			t.Fatalf("columns %v", header)
		}
		cur, err := kruise(t).AppsV1alpha1().NodeImages().Get(context.Background(), imageNode, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return row[0] == imageNode && row[1] == strconv.Itoa(int(cur.Status.Desired)) && row[3] == strconv.Itoa(int(cur.Status.Succeeded)) &&
			cur.Status.Succeeded >= 1, nil
	})
}

// An image the registry refuses: every attempt allowed is made, then the tag is Failed
// with the runtime's message and the number of attempts.
func TestPullFailureReported(t *testing.T) {
	c := framework.Get(t)
	before := c.Metrics(t, "kruise-node-daemon-"+imageNode, "kruise_node_daemon_image_pulls_total")[`{result="failed"}`]
	patchImages(t, imageNode, map[string]any{"fail.invalid/app": map[string]any{"tags": []any{
		map[string]any{"tag": "v1", "pullPolicy": map[string]any{"backoffLimit": 2, "timeoutSeconds": 30}},
	}}})
	ni, st := waitTag(t, imageNode, "fail.invalid/app", "v1", time.Minute, func(st *v1alpha1.ImageTagStatus) bool {
		return st.Phase == v1alpha1.ImagePhaseFailed
	})
	for _, want := range []string{"pull failed after 3 attempts", `failed to pull and unpack image "fail.invalid/app:v1"`, "503 Service Unavailable"} {
		if !strings.Contains(st.Message, want) {
			t.Errorf("message %q does not contain %q", st.Message, want)
		}
	}
	if st.ImageID != "" || st.CompletionTime == nil || ni.Status.Failed < 1 {
		t.Errorf("failed tag %s, counts %+v", describe(st), ni.Status)
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		after := c.Metrics(t, "kruise-node-daemon-"+imageNode, "kruise_node_daemon_image_pulls_total")[`{result="failed"}`]
		return after == before+1, nil
	})
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		events, err := c.Client.CoreV1().Events("default").List(context.Background(), metav1.ListOptions{
			FieldSelector: "involvedObject.name=" + imageNode + ",reason=PullImageFailed"})
		return err == nil && len(events.Items) > 0, err
	})
}

// A daemon killed in the middle of a pull, and started again, pulls the image again
// and finishes; a tag that had finished before is not pulled again.
func TestDaemonRestartMidPull(t *testing.T) {
	c := framework.Get(t)
	component := "kruise-node-daemon-" + imageNode
	patchImages(t, imageNode, map[string]any{
		"busybox":          map[string]any{"tags": []any{map[string]any{"tag": "restart-test"}}},
		"slow.invalid/app": map[string]any{"tags": []any{map[string]any{"tag": "v1"}}},
	})
	waitTag(t, imageNode, "busybox", "restart-test", time.Minute, succeeded)
	_, pulling := waitTag(t, imageNode, "slow.invalid/app", "v1", time.Minute, func(st *v1alpha1.ImageTagStatus) bool {
		return st.Phase == v1alpha1.ImagePhasePulling
	})

	c.StopComponent(t, component)
	stopped := time.Now()
	ni, err := kruise(t).AppsV1alpha1().NodeImages().Get(context.Background(), imageNode, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st := tagStatus(ni, "slow.invalid/app", "v1"); st == nil || st.Phase != v1alpha1.ImagePhasePulling {
		t.Fatalf("after the daemon stopped: %s, want Pulling", describe(st))
	}
	c.StartComponent(t, component)

	_, st := waitTag(t, imageNode, "slow.invalid/app", "v1", 2*time.Minute, succeeded)
	if st.ImageID == "" || !st.StartTime.Equal(pulling.StartTime) || st.CompletionTime.Time.Before(stopped.Truncate(time.Second)) {
		t.Errorf("after the restart: %s; want an imageID, the first start time %s, completion after the restart", describe(st), pulling.StartTime)
	}
	t.Logf("slow pull: started %s, daemon restarted %s, finished %s", pulling.StartTime.Format(time.TimeOnly),
		stopped.Format(time.TimeOnly), st.CompletionTime.Format(time.TimeOnly))

	// The restarted daemon's runtime is new (in memory): busybox:restart-test, finished
	// before the restart, was not pulled again, and its status stays Succeeded.
	_, images := runtimeClient(t, imageNode)
	resp, err := images.ImageStatus(context.Background(), &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: "busybox:restart-test"}})
	if err != nil || resp.GetImage() != nil {
		t.Errorf("busybox:restart-test in the new runtime: %v, %v; want it not pulled again", resp.GetImage(), err)
	}
	ni, err = kruise(t).AppsV1alpha1().NodeImages().Get(context.Background(), imageNode, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st := tagStatus(ni, "busybox", "restart-test"); st == nil || !succeeded(st) {
		t.Errorf("busybox:restart-test after the restart: %s, want still Succeeded", describe(st))
	}
}
