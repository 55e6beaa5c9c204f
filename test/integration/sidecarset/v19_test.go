package sidecarset

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// upgradeSpec is one entry of a pod's kruise.io/sidecarset-hash annotation, as
// OpenKruise writes it.
type upgradeSpec struct {
	Hash               string   `json:"hash"`
	SidecarSetName     string   `json:"sidecarSetName"`
	SidecarList        []string `json:"sidecarList"`
	ControllerRevision string   `json:"controllerRevision"`
}

func podHashes(t *testing.T, pod *corev1.Pod, annotation string) map[string]upgradeSpec {
	t.Helper()
	out := map[string]upgradeSpec{}
	if err := json.Unmarshal([]byte(pod.Annotations[annotation]), &out); err != nil {
		t.Fatalf("%s = %q: %v", annotation, pod.Annotations[annotation], err)
	}
	return out
}

// openKruiseHash is OpenKruise's kruise.io/sidecarset-hash of a stored SidecarSet
// (pkg/control/sidecarcontrol/hash.go): the sha256 of {"containers": [...]} (with
// "initContainers" when one is a native sidecar) of its v1alpha1 JSON.
func openKruiseHash(t *testing.T, ss *v1alpha1.SidecarSet) string {
	t.Helper()
	m := map[string]interface{}{"containers": ss.Spec.Containers}
	for _, c := range ss.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			m["initContainers"] = ss.Spec.InitContainers
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return rand.SafeEncodeString(fmt.Sprintf("%x", sha256.Sum256(data)))
}

func getSidecarSet(t *testing.T, name string) *v1alpha1.SidecarSet {
	t.Helper()
	ss, err := kruiseClient(t, nil).AppsV1alpha1().SidecarSets().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// What an OpenKruise v1.9 user relies on when a pod gets a sidecar and when the
// sidecar is upgraded: the sidecar's own env wins over transferEnv; a shared mount's
// subPathExpr brings the vars it needs; the hash annotations carry OpenKruise's keys
// and values; an image change upgrades in place and applies the changed
// patchPodMetadata (MergePatchJson) to the running pod; a change beyond the image
// leaves running pods alone.
func TestV19InjectionAndUpgradeContracts(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const name = "contracts"
	manifest := func(image, oom string) string {
		return fmt.Sprintf(`
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: %s}
spec:
  selector: {matchLabels: {app: contracts}}
  containers:
  - name: log
    image: %q
    command: [sleep, 999d]
    env: [{name: LOG_LEVEL, value: info}]
    shareVolumePolicy: {type: enabled}
    transferEnv: [{sourceContainerName: app, envName: LOG_LEVEL}]
  patchPodMetadata:
  - patchPolicy: MergePatchJson
    annotations: {kruise-native.io/oom-score: '%s'}
  updateStrategy: {maxUnavailable: "100%%"}`, name, image, oom)
	}
	app := corev1.Container{Name: "app", Image: "nginx:1.25",
		Env: []corev1.EnvVar{{Name: "LOG_LEVEL", Value: "debug"},
			{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
		VolumeMounts: []corev1.VolumeMount{{Name: "logs", MountPath: "/var/log/app", SubPathExpr: "$(POD_NAME)"}}}
	pod := kwokPod("contracts-0", map[string]string{"app": "contracts"}, app)
	pod.Spec.Volumes = []corev1.Volume{{Name: "logs", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	applySidecarSet(t, manifest("busybox:1.35", `{"log":1}`), ns, pod)
	first := waitSidecarSet(t, name, time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.LatestRevision != "" })
	// The webhook injects the revision its cache has: wait until a dry run records it.
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		out, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod.DeepCopy(), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			return false, err
		}
		return podHashes(t, out, "kruise.io/sidecarset-hash")[name].ControllerRevision == first.Status.LatestRevision, nil
	})
	if _, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	running := waitRunning(t, ns, pod.Name)

	log, _ := containerOf(running, "log")
	var levels []string
	for _, e := range log.Env {
		if e.Name == "LOG_LEVEL" {
			levels = append(levels, e.Value)
		}
	}
	if !slices.Equal(levels, []string{"info"}) {
		t.Errorf("sidecar LOG_LEVEL = %v, want only its own [info] (it wins over transferEnv)", levels)
	}
	if e := envOf(log, "POD_NAME"); e == nil || e.ValueFrom == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.name" {
		t.Errorf("sidecar env %+v: want POD_NAME, which the shared mount's subPathExpr $(POD_NAME) refers to", log.Env)
	}
	wantHash := openKruiseHash(t, first)
	for _, a := range []string{"kruise.io/sidecarset-hash", "kruise.io/sidecarset-hash-without-image"} {
		s := podHashes(t, running, a)[name]
		if s.SidecarSetName != name || !slices.Equal(s.SidecarList, []string{"log"}) || s.ControllerRevision != first.Status.LatestRevision {
			t.Errorf("%s[%s] = %+v, want sidecarSetName, sidecarList [log] and controllerRevision %s", a, name, s, first.Status.LatestRevision)
		}
	}
	if h := podHashes(t, running, "kruise.io/sidecarset-hash")[name].Hash; h != wantHash {
		t.Errorf("kruise.io/sidecarset-hash = %s, want OpenKruise's %s for this SidecarSet", h, wantHash)
	}
	if got := running.Annotations["kruise-native.io/oom-score"]; got != `{"log":1}` {
		t.Errorf("oom-score at injection = %q", got)
	}

	// A new image and a new metadata patch: the upgrade in place brings both.
	if _, err := c.KubectlStdin(t, manifest("busybox:1.36", `{"envoy":2}`), "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	waitSidecarSet(t, name, 2*time.Minute, func(s v1alpha1.SidecarSetStatus) bool {
		return s.LatestRevision != first.Status.LatestRevision && s.UpdatedPods == 1 && s.UpdatedReadyPods == 1
	})
	upgraded := getPod(t, ns, pod.Name)
	if l, _ := containerOf(upgraded, "log"); l.Image != "busybox:1.36" || upgraded.UID != running.UID {
		t.Fatalf("log runs %s (uid %s), want busybox:1.36 in place", l.Image, upgraded.UID)
	}
	if got := upgraded.Annotations["kruise-native.io/oom-score"]; got != `{"envoy":2,"log":1}` {
		t.Errorf("oom-score after the upgrade = %q, want the changed MergePatchJson patch merged in: {\"envoy\":2,\"log\":1}", got)
	}
	if h := podHashes(t, upgraded, "kruise.io/sidecarset-hash")[name].Hash; h != openKruiseHash(t, getSidecarSet(t, name)) {
		t.Errorf("hash after the upgrade = %s, want OpenKruise's for the new SidecarSet", h)
	}

	// A change beyond the image: running pods are not touched and not counted updated.
	patchSidecarSet(t, name, `{"spec":{"containers":[{"name":"log","image":"busybox:1.36","command":["sleep","1d"],
		"env":[{"name":"LOG_LEVEL","value":"info"}],"shareVolumePolicy":{"type":"enabled"},
		"transferEnv":[{"sourceContainerName":"app","envName":"LOG_LEVEL"}]}]}}`)
	waitSidecarSet(t, name, time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.MatchedPods == 1 && s.UpdatedPods == 0 })
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		p := getPod(t, ns, pod.Name)
		l, _ := containerOf(p, "log")
		if p.UID != running.UID || !slices.Equal(l.Command, []string{"sleep", "999d"}) {
			return false, fmt.Sprintf("pod %s runs %v, want it left as it was", p.UID, l.Command)
		}
		return true, ""
	})
}

// Native sidecars (initContainers with restartPolicy Always) count in
// kruise.io/sidecarset-hash: changing one shows the pod as not updated.
func TestV19NativeSidecarCountsInHash(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const name = "native-hash"
	manifest := func(image string) string {
		return fmt.Sprintf(`
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: %s}
spec:
  selector: {matchLabels: {app: native-hash}}
  initContainers: [{name: proxy, image: %q, restartPolicy: Always, command: [sleep, 999d]}]
  containers: [{name: log, image: busybox:1.35, command: [sleep, 999d]}]`, name, image)
	}
	applySidecarSet(t, manifest("busybox:1.35"), ns,
		kwokPod("probe", map[string]string{"app": "native-hash"}, corev1.Container{Name: "app", Image: "nginx"}))
	p := createPods(t, ns, "native-hash", 1, nil)[0]
	if !slices.ContainsFunc(p.Spec.InitContainers, func(c corev1.Container) bool { return c.Name == "proxy" }) {
		t.Fatalf("init containers %v, want proxy injected", names(p.Spec.InitContainers))
	}
	waitSidecarSet(t, name, time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.MatchedPods == 1 && s.UpdatedPods == 1 })
	if s := podHashes(t, p, "kruise.io/sidecarset-hash")[name]; !slices.Equal(s.SidecarList, []string{"log", "proxy"}) {
		t.Errorf("sidecarList = %v, want [log proxy] (native sidecars and containers, as OpenKruise records)", s.SidecarList)
	}
	if _, err := c.KubectlStdin(t, manifest("busybox:1.36"), "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	waitSidecarSet(t, name, time.Minute, func(s v1alpha1.SidecarSetStatus) bool { return s.MatchedPods == 1 && s.UpdatedPods == 0 })
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		ss := getSidecarSet(t, name)
		if ss.Status.UpdatedPods != 0 {
			return false, fmt.Sprintf("updatedPods = %d with the old native sidecar running, want 0", ss.Status.UpdatedPods)
		}
		return true, ""
	})
}

// shareVolumeDevicePolicy: the sidecar gets the app container's raw block device.
func TestV19ShareVolumeDevicePolicy(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	const name = "share-devices"
	pod := kwokPod("db-0", map[string]string{"app": "share-devices"},
		corev1.Container{Name: "db", Image: "postgres", VolumeDevices: []corev1.VolumeDevice{{Name: "data", DevicePath: "/dev/xvda"}}})
	pod.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{
		PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data-db-0"}}}}
	applySidecarSet(t, `
apiVersion: apps.kruise.io/v1alpha1
kind: SidecarSet
metadata: {name: share-devices}
spec:
  selector: {matchLabels: {app: share-devices}}
  containers:
  - {name: backup, image: busybox, command: [sleep, 999d], shareVolumeDevicePolicy: {type: enabled}}`, ns, pod)
	out, err := c.Client.CoreV1().Pods(ns).Create(context.Background(), pod, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := containerOf(out, "backup")
	if len(b.VolumeDevices) != 1 || b.VolumeDevices[0].Name != "data" || b.VolumeDevices[0].DevicePath != "/dev/xvda" {
		t.Errorf("backup volumeDevices = %+v, want data at /dev/xvda", b.VolumeDevices)
	}
	got := kubectl(t, "get", "sidecarset", name, "-o", "jsonpath={.spec.containers[0].shareVolumeDevicePolicy.type}")
	if strings.TrimSpace(got) != "enabled" {
		t.Errorf("stored shareVolumeDevicePolicy.type = %q, want enabled", got)
	}
}
