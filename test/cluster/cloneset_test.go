package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// push puts test images for refs into the loopback registry.
func (s *suite) push(t *testing.T, refs ...string) {
	t.Helper()
	for _, r := range refs {
		if _, err := s.c.Registry.Push(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

// waitCloneSet waits until cond holds for the CloneSet default/name.
func (s *suite) waitCloneSet(t *testing.T, name string, timeout time.Duration, what string, cond func(*appsv1alpha1.CloneSet) error) *appsv1alpha1.CloneSet {
	t.Helper()
	var cs *appsv1alpha1.CloneSet
	must(t, harness.WaitFor(context.Background(), timeout, 500*time.Millisecond, "CloneSet "+name+": "+what, func(ctx context.Context) error {
		var err error
		cs, err = s.kruise.AppsV1alpha1().CloneSets("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if cs.Status.ObservedGeneration < cs.Generation {
			return fmt.Errorf("generation %d not observed (%d)", cs.Generation, cs.Status.ObservedGeneration)
		}
		return cond(cs)
	}))
	return cs
}

// deleteCloneSet deletes the CloneSet and waits until its pods are gone.
func (s *suite) deleteCloneSet(t *testing.T, name, selector string) {
	t.Helper()
	ctx := context.Background()
	must(t, ignoreNotFound(s.kruise.AppsV1alpha1().CloneSets("default").Delete(ctx, name, metav1.DeleteOptions{})))
	must(t, waitNoPods(ctx, s.c.Client, "default", selector))
}

func readyCount(want int32) func(*appsv1alpha1.CloneSet) error {
	return func(cs *appsv1alpha1.CloneSet) error {
		st := cs.Status
		if st.Replicas != want || st.ReadyReplicas != want || st.UpdatedReadyReplicas != want {
			return fmt.Errorf("replicas %d ready %d updatedReady %d, want %d", st.Replicas, st.ReadyReplicas, st.UpdatedReadyReplicas, want)
		}
		return nil
	}
}

// podRecord is what an in-place update must keep (UID, IP) and change (container, image).
type podRecord struct {
	uid         types.UID
	ip          string
	containerID string
	restarts    int32
	app         appState
}

func (s *suite) recordPods(t *testing.T, selector, container string) map[string]podRecord {
	t.Helper()
	ctx := context.Background()
	pods, err := podsOf(ctx, s.c.Client, "default", selector)
	must(t, err)
	out := map[string]podRecord{}
	for name, p := range pods {
		st := containerStatus(&p, container)
		app, err := appAt(ctx, p.Status.PodIP)
		must(t, err)
		out[name] = podRecord{uid: p.UID, ip: p.Status.PodIP, containerID: st.ContainerID, restarts: st.RestartCount, app: app}
	}
	return out
}

// testCloneSetBasic: cloneset-basic.yaml — 3 pods created by the CloneSet itself (owner
// the CloneSet, no ReplicaSet), running the image, events SuccessfulCreate.
func (s *suite) testCloneSetBasic(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "cloneset-basic.yaml"))
	defer s.deleteCloneSet(t, "cs-demo", "app=cs")
	s.waitCloneSet(t, "cs-demo", 2*time.Minute, "3 ready", readyCount(3))
	pods, err := podsOf(ctx, s.c.Client, "default", "app=cs")
	must(t, err)
	for name, p := range pods {
		ref := metav1.GetControllerOf(&p)
		if ref == nil || ref.Kind != "CloneSet" || ref.Name != "cs-demo" {
			t.Errorf("pod %s: controller %v, want CloneSet cs-demo", name, ref)
		}
		app, err := appAt(ctx, p.Status.PodIP)
		must(t, err)
		if app.Image != "docker.io/library/nginx:alpine" {
			t.Errorf("pod %s runs %s", name, app.Image)
		}
	}
	reasons, err := eventsFor(ctx, s.c.Client, "default", "CloneSet", "cs-demo")
	must(t, err)
	if !slices.Contains(reasons, "SuccessfulCreate") {
		t.Errorf("CloneSet events %v, want SuccessfulCreate", reasons)
	}
	out := s.kubectl(t, "get", "cloneset", "cs-demo")
	t.Logf("kubectl get cloneset cs-demo:\n%s", out)
	if !containsAll(out, "DESIRED", "UPDATED", "UPDATED_READY", "READY", "TOTAL") {
		t.Errorf("columns: %s", out)
	}
}

// testCloneSetInPlace: cloneset-inplace-partition.yaml — 4 pods; an image change updates
// 4-partition(2) pods in place: the same pod (name, UID, IP), a new container that runs
// the new image (asked from inside), event SuccessfulUpdatePodInPlace; the other 2 keep
// the old image until the partition goes to 0.
func (s *suite) testCloneSetInPlace(t *testing.T) {
	ctx := context.Background()
	const oldImage, newImage = "nginx:latest", "nginx:1.25-alpine"
	s.push(t, oldImage, newImage)
	s.apply(t, example(t, "cloneset-inplace-partition.yaml"))
	defer s.deleteCloneSet(t, "cs-demo", "app=cs")
	defer func() {
		if t.Failed() {
			s.dumpPods(t, "default", "app=cs")
		}
	}()
	s.waitCloneSet(t, "cs-demo", 2*time.Minute, "4 ready", readyCount(4))
	before := s.recordPods(t, "app=cs", "nginx")
	for n, r := range before {
		if r.app.Image != "docker.io/library/"+oldImage {
			t.Fatalf("pod %s runs %s before the update", n, r.app.Image)
		}
	}

	begin := time.Now()
	s.kubectl(t, "patch", "cloneset", "cs-demo", "--type=json",
		"-p", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"`+newImage+`"}]`)
	s.waitCloneSet(t, "cs-demo", 2*time.Minute, "2 updated and ready (partition 2)", func(cs *appsv1alpha1.CloneSet) error {
		if cs.Status.UpdatedReadyReplicas != 2 || cs.Status.ReadyReplicas != 4 {
			return fmt.Errorf("updatedReady %d ready %d", cs.Status.UpdatedReadyReplicas, cs.Status.ReadyReplicas)
		}
		return nil
	})
	t.Logf("2 of 4 pods updated in place and ready in %s", time.Since(begin).Round(100*time.Millisecond))
	// checkInPlace compares the pods with before: the same name, UID and IP for all 4;
	// want of them run newImage in a new container (asked from inside it), the others
	// still run their first container. It is called once the CloneSet's status reports the
	// update done, so a container not yet switched then means the status counted a pod as
	// updated and ready while it still ran the old image.
	checkInPlace := func(want int) error {
		after := s.recordPods(t, "app=cs", "nginx")
		updated := 0
		var problems []string
		for n, a := range after {
			b, ok := before[n]
			if !ok {
				t.Errorf("pod %s is new: an in-place update recreated a pod", n)
				continue
			}
			if a.uid != b.uid || a.ip != b.ip {
				t.Errorf("pod %s: UID %s -> %s, IP %s -> %s: not in place", n, b.uid, a.uid, b.ip, a.ip)
			}
			switch a.app.Image {
			case "docker.io/library/" + newImage:
				updated++
				if a.containerID == b.containerID || a.restarts != b.restarts+1 || a.app.Started == b.app.Started {
					t.Errorf("pod %s: container %s -> %s, restarts %d -> %d, started %s -> %s: the container was not replaced",
						n, b.containerID, a.containerID, b.restarts, a.restarts, b.app.Started, a.app.Started)
				}
			case "docker.io/library/" + oldImage:
				if a.containerID != b.containerID {
					problems = append(problems, fmt.Sprintf("pod %s: a new container still runs %s", n, oldImage))
				}
			default:
				t.Errorf("pod %s runs %s", n, a.app.Image)
			}
		}
		if len(after) != 4 || updated != want {
			problems = append(problems, fmt.Sprintf("%d pods, %d run %s; want 4 and %d", len(after), updated, newImage, want))
		}
		if len(problems) > 0 {
			return fmt.Errorf("%s", strings.Join(problems, "; "))
		}
		t.Logf("in place: %d pods kept name, UID and IP; %d run %s (asked from inside the container)", len(after), updated, newImage)
		return nil
	}
	settle := func(want int) {
		if err := checkInPlace(want); err != nil {
			t.Errorf("the CloneSet's status reports %d updated and ready, but: %v", want, err)
			must(t, harness.WaitFor(ctx, time.Minute, 250*time.Millisecond, "containers switched", func(context.Context) error { return checkInPlace(want) }))
		}
	}
	settle(2)
	reasons, err := eventsFor(ctx, s.c.Client, "default", "CloneSet", "cs-demo")
	must(t, err)
	if !slices.Contains(reasons, "SuccessfulUpdatePodInPlace") {
		t.Errorf("CloneSet events %v, want SuccessfulUpdatePodInPlace", reasons)
	}

	// v1alpha1 explicitly: kubectl speaks the preferred v1beta1, where the partition is
	// spec.updateStrategy.rollingUpdate.partition.
	s.kubectl(t, "patch", "clonesets.v1alpha1.apps.kruise.io", "cs-demo", "--type=merge", "-p", `{"spec":{"updateStrategy":{"partition":0}}}`)
	s.waitCloneSet(t, "cs-demo", 2*time.Minute, "all 4 updated and ready", func(cs *appsv1alpha1.CloneSet) error {
		if cs.Status.UpdatedReadyReplicas != 4 {
			return fmt.Errorf("updatedReady %d", cs.Status.UpdatedReadyReplicas)
		}
		return nil
	})
	settle(4)
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
