package sidecarset

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// sidecarset.yaml's promise: patching the image upgrades the sidecar in place, with
// restartCount +1 and the app container untouched; status counts the pod, a
// ControllerRevision records each version, and kubectl prints the counts.
func TestInPlaceUpgrade(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	// The documented SidecarSet under a name and on pods of its own: another test's
	// test-sidecarset pods may still be terminating.
	doc := strings.NewReplacer("name: test-sidecarset", "name: inplace-sidecarset", "app: nginx", "app: inplace").
		Replace(exampleDocuments(t, "sidecarset.yaml", "SidecarSet")[0])
	applySidecarSet(t, doc, ns, kwokPod("probe", map[string]string{"app": "inplace"}, corev1.Container{Name: "app", Image: "nginx"}))
	before := createPods(t, ns, "inplace", 1, nil)[0]
	first := waitSidecarSet(t, "inplace-sidecarset", time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.MatchedPods == 1 && s.UpdatedPods == 1 && s.ReadyPods == 1 && s.UpdatedReadyPods == 1 && s.LatestRevision != ""
	})
	if r := row(kubectl(t, "get", "sidecarsets", "inplace-sidecarset"), "inplace-sidecarset"); len(r) < 4 || r[1] != "1" || r[2] != "1" || r[3] != "1" {
		t.Errorf("kubectl get sidecarsets: %v, want MATCHED UPDATED READY 1 1 1", r)
	}

	setImage(t, "inplace-sidecarset", "busybox:1.36")
	second := waitSidecarSet(t, "inplace-sidecarset", 2*time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.UpdatedPods == 1 && s.UpdatedReadyPods == 1
	})
	if second.Status.LatestRevision == first.Status.LatestRevision {
		t.Errorf("latestRevision stayed %s after the image change", first.Status.LatestRevision)
	}
	after := getPod(t, ns, before.Name)
	if after.UID != before.UID {
		t.Fatal("the pod was recreated, want an in-place upgrade")
	}
	sc, scStatus := containerOf(after, "sidecar1")
	_, scBefore := containerOf(before, "sidecar1")
	app, appStatus := containerOf(after, "app")
	_, appBefore := containerOf(before, "app")
	if sc.Image != "busybox:1.36" || scStatus.RestartCount != scBefore.RestartCount+1 {
		t.Errorf("sidecar1: image %s restarts %d, want busybox:1.36 and %d", sc.Image, scStatus.RestartCount, scBefore.RestartCount+1)
	}
	if app.Image != "nginx:1.25" || appStatus.RestartCount != appBefore.RestartCount {
		t.Errorf("app: image %s restarts %d, want it untouched", app.Image, appStatus.RestartCount)
	}
	if _, ok := after.Annotations[pub.SidecarSetInPlaceUpdateStateKey]; !ok {
		t.Errorf("no %s on the pod", pub.SidecarSetInPlaceUpdateStateKey)
	}
	if s := sidecarset.UpgradeSpecs(after, pub.SidecarSetHashAnnotation)["inplace-sidecarset"]; s.ControllerRevision != second.Status.LatestRevision {
		t.Errorf("pod records revision %s, want %s", s.ControllerRevision, second.Status.LatestRevision)
	}
	revs, err := c.Client.AppsV1().ControllerRevisions(sidecarset.RevisionNamespace).List(ctx, metav1.ListOptions{
		LabelSelector: labels.Set{sidecarset.RevisionLabel: "inplace-sidecarset"}.String()})
	if err != nil {
		t.Fatal(err)
	}
	var revNames []string
	for _, r := range revs.Items {
		revNames = append(revNames, r.Name)
	}
	if !slices.Contains(revNames, first.Status.LatestRevision) || !slices.Contains(revNames, second.Status.LatestRevision) {
		t.Errorf("revisions %v, want both versions", revNames)
	}
}

// updateStrategy.selector: only the labelled pods get the new sidecar.
func TestCanaryUpgrade(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	applySidecarSet(t, sidecarSetManifest("canary", "canary", "canary-log", "busybox:1.35",
		`{maxUnavailable: "100%", selector: {matchLabels: {canary.release: "true"}}}`), ns,
		kwokPod("probe", map[string]string{"app": "canary"}, corev1.Container{Name: "app", Image: "nginx"}))
	createPods(t, ns, "canary", 4, func(i int) map[string]string {
		if i < 2 {
			return map[string]string{"canary.release": "true"}
		}
		return nil
	})
	waitSidecarSet(t, "canary", time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.MatchedPods == 4 && s.UpdatedPods == 4 })
	setImage(t, "canary", "busybox:1.36")
	waitSidecarSet(t, "canary", 2*time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.UpdatedPods == 2 && s.UpdatedReadyPods == 2
	})
	// Only the canaries, and nothing else follows.
	framework.Consistently(t, 2*time.Second, func() (bool, string) {
		for i, want := range []string{"busybox:1.36", "busybox:1.36", "busybox:1.35", "busybox:1.35"} {
			if c, _ := containerOf(getPod(t, ns, "canary-"+string(rune('0'+i))), "canary-log"); c.Image != want {
				return false, fmt.Sprintf("canary-%d runs %s, want %s", i, c.Image, want)
			}
		}
		return true, ""
	})
}

// partition holds pods back; paused holds them all; a change beyond images is named;
// each is said in a RolloutBlocked event.
func TestBlockedRollout(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	applySidecarSet(t, sidecarSetManifest("partitioned", "partitioned", "part-log", "busybox:1.35",
		`{maxUnavailable: 2, partition: 2}`), ns,
		kwokPod("probe", map[string]string{"app": "partitioned"}, corev1.Container{Name: "app", Image: "nginx"}))
	createPods(t, ns, "partitioned", 3, nil)
	waitSidecarSet(t, "partitioned", time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.UpdatedPods == 3 })

	setImage(t, "partitioned", "busybox:1.36")
	waitSidecarSet(t, "partitioned", 2*time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.UpdatedPods == 1 && s.UpdatedReadyPods == 1
	})
	waitEvent(t, "partitioned", "RolloutBlocked", "partition 2 keeps the remaining 2 pod(s)")

	patchSidecarSet(t, "partitioned", `{"spec":{"updateStrategy":{"partition":0,"paused":true}}}`)
	waitEvent(t, "partitioned", "RolloutBlocked", "updateStrategy.paused: 2 pod(s) wait")
	patchSidecarSet(t, "partitioned", `{"spec":{"updateStrategy":{"paused":false}}}`)
	waitSidecarSet(t, "partitioned", 2*time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.UpdatedPods == 3 && s.UpdatedReadyPods == 3
	})

	patchSidecarSet(t, "partitioned", `{"spec":{"containers":[{"name":"part-log","image":"busybox:1.36","command":["sleep","1d"]}]}}`)
	waitEvent(t, "partitioned", "RolloutBlocked", "3 pod(s) need more than an image change")
	if s := waitSidecarSet(t, "partitioned", time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return true }).Status; s.UpdatedPods != 0 {
		t.Errorf("updatedPods = %d after a command change, want 0 (nothing can be upgraded in place)", s.UpdatedPods)
	}
}

// sidecarset-hotupgrade.yaml's promise: an image change upgrades the idle container,
// which then works while the old one runs the empty image; the next change goes back
// to the first container.
func TestHotUpgrade(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	applySidecarSet(t, exampleDocuments(t, "sidecarset-hotupgrade.yaml", "SidecarSet")[0], ns,
		kwokPod("probe", map[string]string{"app": "hotupgrade"}, corev1.Container{Name: "busybox", Image: "busybox"}))
	pod := createPods(t, ns, "hotupgrade", 1, nil)[0]
	waitSidecarSet(t, "hotupgrade-sidecarset", time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.UpdatedReadyPods == 1 })

	expect := func(working, workImage, idle string) {
		t.Helper()
		framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
			p, err := c.Client.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
			if err != nil {
				return false, err
			}
			w, _ := containerOf(p, working)
			i, iStatus := containerOf(p, idle)
			return sidecarset.WorkingHotUpgradeContainers(p)["sidecar"] == working && w.Image == workImage &&
				i.Image == "openkruise/hotupgrade-sample:empty" && iStatus.Image == i.Image && p.UID == pod.UID, nil
		})
	}
	expect("sidecar-1", "openkruise/hotupgrade-sample:sidecarv1", "sidecar-2")
	setImage(t, "hotupgrade-sidecarset", "openkruise/hotupgrade-sample:sidecarv2")
	expect("sidecar-2", "openkruise/hotupgrade-sample:sidecarv2", "sidecar-1")
	setImage(t, "hotupgrade-sidecarset", "openkruise/hotupgrade-sample:sidecarv3")
	expect("sidecar-1", "openkruise/hotupgrade-sample:sidecarv3", "sidecar-2")
	waitSidecarSet(t, "hotupgrade-sidecarset", time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.UpdatedReadyPods == 1 })
	if b, _ := containerOf(getPod(t, ns, pod.Name), "app"); b.Image != "nginx:1.25" {
		t.Errorf("the app container changed: %s", b.Image)
	}
}

// injectionStrategy.revision: new pods get the sidecars of the named revision, not the
// latest; without the pin they get the latest again.
func TestPinnedRevisionInjection(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	probe := kwokPod("probe", map[string]string{"app": "pinned"}, corev1.Container{Name: "app", Image: "nginx"})
	applySidecarSet(t, sidecarSetManifest("pinned", "pinned", "pinned-log", "busybox:1.35", `{type: NotUpdate}`), ns, probe)
	first := waitSidecarSet(t, "pinned", time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.LatestRevision != "" })

	patchSidecarSet(t, "pinned", `{"spec":{"containers":[{"name":"pinned-log","image":"busybox:1.36","command":["sleep","999d"]}],
		"injectionStrategy":{"revision":{"revisionName":"`+first.Status.LatestRevision+`"}}}}`)
	waitSidecarSet(t, "pinned", time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.LatestRevision != "" && s.LatestRevision != first.Status.LatestRevision
	})
	injectedImage := func() string {
		out, err := c.Client.CoreV1().Pods(ns).Create(ctx, probe.DeepCopy(), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := containerOf(out, "pinned-log")
		return sc.Image
	}
	framework.WaitFor(t, 30*time.Second, func() (bool, error) { return injectedImage() == "busybox:1.35", nil })
	pod := createPods(t, ns, "pinned", 1, nil)[0]
	if sc, _ := containerOf(pod, "pinned-log"); sc.Image != "busybox:1.35" {
		t.Errorf("pinned pod runs %s, want the pinned busybox:1.35", sc.Image)
	}
	if s := sidecarset.UpgradeSpecs(pod, pub.SidecarSetHashAnnotation)["pinned"]; s.ControllerRevision != first.Status.LatestRevision {
		t.Errorf("pod records revision %s, want %s", s.ControllerRevision, first.Status.LatestRevision)
	}

	patchSidecarSet(t, "pinned", `{"spec":{"injectionStrategy":{"revision":null}}}`)
	framework.WaitFor(t, 30*time.Second, func() (bool, error) { return injectedImage() == "busybox:1.36", nil })
}
