package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// onlyPod returns the single pod matching selector.
func (s *suite) onlyPod(t *testing.T, selector string) corev1.Pod {
	t.Helper()
	pods, err := podsOf(context.Background(), s.c.Client, "default", selector)
	must(t, err)
	if len(pods) != 1 {
		t.Fatalf("%d pods match %s, want 1", len(pods), selector)
	}
	for _, p := range pods {
		return p
	}
	return corev1.Pod{}
}

// testCloneSetEnvFromAnnotation: cloneset-env-from-annotation.yaml — changing the
// app-config annotation restarts the container that reads it through env, in place (the
// node daemon restarts it so the new value is read): the same pod, restartCount 1, and
// the process inside sees the new value.
func (s *suite) testCloneSetEnvFromAnnotation(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "cloneset-env-from-annotation.yaml"))
	defer s.deleteCloneSet(t, "cs-env", "app=cs-env")
	s.waitCloneSet(t, "cs-env", 2*time.Minute, "1 ready", readyCount(1))
	before := s.onlyPod(t, "app=cs-env")
	app0, err := appAt(ctx, before.Status.PodIP)
	must(t, err)
	if app0.AppConfig != "... the real env value ..." {
		t.Fatalf("the container sees APP_CONFIG=%q", app0.AppConfig)
	}
	begin := time.Now()
	s.kubectl(t, "patch", "clonesets.v1alpha1.apps.kruise.io", "cs-env", "--type=merge",
		"-p", `{"spec":{"template":{"metadata":{"annotations":{"app-config":"config v2"}}}}}`)
	must(t, harness.WaitFor(ctx, 2*time.Minute, 250*time.Millisecond, "the container sees the new APP_CONFIG", func(ctx context.Context) error {
		p := s.onlyPod(t, "app=cs-env")
		if p.UID != before.UID {
			return fmt.Errorf("pod replaced")
		}
		app, err := appAt(ctx, p.Status.PodIP)
		if err != nil {
			return err
		}
		if app.AppConfig != "config v2" {
			return fmt.Errorf("APP_CONFIG=%q", app.AppConfig)
		}
		return nil
	}))
	after := s.onlyPod(t, "app=cs-env")
	r0, r1 := containerStatus(&before, "app").RestartCount, containerStatus(&after, "app").RestartCount
	if after.UID != before.UID || r1 != r0+1 {
		// Two restarts in a row also cost a CrashLoopBackOff (10 s) before the last start.
		daemonLog, _ := s.run(ctx, "", "kubectl", "-n", kruiseNamespace, "logs", "daemonset/kruise-node-daemon", "--tail=40")
		t.Errorf("pod %s -> %s, restarts %d -> %d: want the same pod restarted once; the node daemon's log ends:\n%s",
			before.UID, after.UID, r0, r1, daemonLog)
	}
	t.Logf("annotation change: the same pod's container restarted in place (restarts %d -> %d) in %s and reads APP_CONFIG=%q",
		r0, r1, time.Since(begin).Round(100*time.Millisecond), "config v2")
}

// testCloneSetContainerPriority: cloneset-container-priority.yaml — one change of the
// annotation (read by the sidecar's env) and of main's image updates the sidecar first
// (priority 10), then main: containerBatchesRecord has two batches in that order, and
// main runs the new image.
func (s *suite) testCloneSetContainerPriority(t *testing.T) {
	ctx := context.Background()
	s.push(t, "sidecar-image:v1", "main-image:v1", "main-image:v2")
	s.apply(t, example(t, "cloneset-container-priority.yaml"))
	defer s.deleteCloneSet(t, "cs-prio", "app=cs-prio")
	s.waitCloneSet(t, "cs-prio", 2*time.Minute, "1 ready", readyCount(1))
	before := s.onlyPod(t, "app=cs-prio")
	s.kubectl(t, "patch", "clonesets.v1alpha1.apps.kruise.io", "cs-prio", "--type=json", "-p",
		`[{"op":"replace","path":"/spec/template/metadata/annotations/app-config","value":"config v2"},`+
			`{"op":"replace","path":"/spec/template/spec/containers/1/image","value":"main-image:v2"}]`)
	s.waitCloneSet(t, "cs-prio", 2*time.Minute, "updated and ready", readyCount(1))
	var batches [][]string
	must(t, harness.WaitFor(ctx, time.Minute, 250*time.Millisecond, "main runs main-image:v2 after two batches", func(ctx context.Context) error {
		p := s.onlyPod(t, "app=cs-prio")
		st := containerStatus(&p, "main")
		if !strings.HasSuffix(st.Image, "main-image:v2") || st.State.Running == nil {
			return fmt.Errorf("main: image %s running %v", st.Image, st.State.Running != nil)
		}
		var state struct {
			ContainerBatchesRecord []struct {
				Containers []string `json:"containers"`
			} `json:"containerBatchesRecord"`
		}
		if err := json.Unmarshal([]byte(p.Annotations["apps.kruise.io/inplace-update-state"]), &state); err != nil {
			return err
		}
		batches = nil
		for _, b := range state.ContainerBatchesRecord {
			batches = append(batches, b.Containers)
		}
		if p.UID != before.UID {
			return fmt.Errorf("pod replaced")
		}
		return nil
	}))
	if len(batches) != 2 || !slices.Equal(batches[0], []string{"sidecar"}) || !slices.Equal(batches[1], []string{"main"}) {
		t.Errorf("containerBatchesRecord %v, want [[sidecar] [main]]", batches)
	}
	t.Logf("in place, in priority order: batches %v; main now runs main-image:v2", batches)
}

// testCloneSetScaleLimited: cloneset-scale-limited.yaml — with minReadySeconds 60 and
// maxUnavailable 1 the second pod is created only once the first has been ready for 60s
// (event ScaleUpLimited meanwhile).
func (s *suite) testCloneSetScaleLimited(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "cloneset-scale-limited.yaml"))
	defer s.deleteCloneSet(t, "cs-demo", "app=cs")
	var firstReady time.Time
	must(t, harness.WaitFor(ctx, 2*time.Minute, 250*time.Millisecond, "first pod ready", func(ctx context.Context) error {
		pods, err := podsOf(ctx, s.c.Client, "default", "app=cs")
		if err != nil {
			return err
		}
		if len(pods) != 1 {
			return fmt.Errorf("%d pods", len(pods))
		}
		for _, p := range pods {
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
					firstReady = c.LastTransitionTime.Time
					return nil
				}
			}
		}
		return fmt.Errorf("not ready")
	}))
	var second time.Time
	must(t, harness.WaitFor(ctx, 2*time.Minute, 250*time.Millisecond, "second pod", func(ctx context.Context) error {
		pods, err := podsOf(ctx, s.c.Client, "default", "app=cs")
		if err != nil {
			return err
		}
		if len(pods) < 2 {
			return fmt.Errorf("%d pods", len(pods))
		}
		var created []time.Time
		for _, p := range pods {
			created = append(created, p.CreationTimestamp.Time)
		}
		sort.Slice(created, func(i, j int) bool { return created[i].Before(created[j]) })
		second = created[1]
		return nil
	}))
	gap := second.Sub(firstReady)
	reasons, err := eventsFor(ctx, s.c.Client, "default", "CloneSet", "cs-demo")
	must(t, err)
	// Timestamps have second resolution.
	if gap < 59*time.Second || !slices.Contains(reasons, "ScaleUpLimited") {
		t.Errorf("second pod %s after the first was ready (want >= 60s); events %v (want ScaleUpLimited)", gap, reasons)
	}
	t.Logf("second pod created %s after the first became ready; events include ScaleUpLimited", gap)
}

// testCloneSetPodsToDelete: cloneset-pods-to-delete.yaml over its own CloneSet at 5 pods —
// the named pod, and only it, goes as the CloneSet scales to 4; its name leaves
// podsToDelete.
func (s *suite) testCloneSetPodsToDelete(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:alpine")
	// First the example's CloneSet at 5 replicas, without the deletion and without
	// minReadySeconds (which with maxUnavailable 1 would create them a minute apart): the
	// same template, so applying the example changes nothing but what it is about.
	s.apply(t, example(t, "cloneset-pods-to-delete.yaml"), "replicas: 4", "replicas: 5",
		"    podsToDelete:\n    - POD_NAME\n", "", "  minReadySeconds: 60\n", "")
	defer s.deleteCloneSet(t, "cs-demo", "app=cs")
	s.waitCloneSet(t, "cs-demo", 2*time.Minute, "5 ready", readyCount(5))
	pods, err := podsOf(ctx, s.c.Client, "default", "app=cs")
	must(t, err)
	var names []string
	for n := range pods {
		names = append(names, n)
	}
	sort.Strings(names)
	victim := names[2]
	s.apply(t, example(t, "cloneset-pods-to-delete.yaml"), "POD_NAME", victim)
	cs := s.waitCloneSet(t, "cs-demo", 2*time.Minute, "4 pods, the named one gone", func(cs *appsv1alpha1.CloneSet) error {
		pods, err := podsOf(ctx, s.c.Client, "default", "app=cs")
		if err != nil {
			return err
		}
		if _, ok := pods[victim]; ok || len(pods) != 4 || len(cs.Spec.ScaleStrategy.PodsToDelete) != 0 {
			return fmt.Errorf("%d pods, %s there %v, podsToDelete %v", len(pods), victim, ok, cs.Spec.ScaleStrategy.PodsToDelete)
		}
		return nil
	})
	after, err := podsOf(ctx, s.c.Client, "default", "app=cs")
	must(t, err)
	for n := range after {
		if _, ok := pods[n]; !ok {
			t.Errorf("pod %s is new: scaling down replaced a pod", n)
		}
	}
	t.Logf("scaled to %d removing exactly %s; podsToDelete now %v", *cs.Spec.Replicas, victim, cs.Spec.ScaleStrategy.PodsToDelete)
}
