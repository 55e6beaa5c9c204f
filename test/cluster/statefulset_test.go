package cluster

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// waitStatefulSet waits until cond holds for the Advanced StatefulSet default/name.
func (s *suite) waitStatefulSet(t *testing.T, name string, timeout time.Duration, what string, cond func(*appsv1beta1.StatefulSet) error) {
	t.Helper()
	must(t, harness.WaitFor(context.Background(), timeout, 500*time.Millisecond, "StatefulSet "+name+": "+what, func(ctx context.Context) error {
		set, err := s.kruise.AppsV1beta1().StatefulSets("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if set.Status.ObservedGeneration < set.Generation {
			return fmt.Errorf("generation not observed")
		}
		return cond(set)
	}))
}

func setUpdatedReady(n int32) func(*appsv1beta1.StatefulSet) error {
	return func(set *appsv1beta1.StatefulSet) error {
		st := set.Status
		if st.Replicas != n || st.ReadyReplicas != n || st.UpdatedReplicas != n || st.UpdatedReadyReplicas != n {
			return fmt.Errorf("replicas %d ready %d updated %d updatedReady %d, want %d", st.Replicas, st.ReadyReplicas, st.UpdatedReplicas, st.UpdatedReadyReplicas, n)
		}
		return nil
	}
}

func (s *suite) deleteStatefulSet(t *testing.T, name, selector string) {
	t.Helper()
	ctx := context.Background()
	must(t, ignoreNotFound(s.kruise.AppsV1beta1().StatefulSets("default").Delete(ctx, name, metav1.DeleteOptions{})))
	must(t, waitNoPods(ctx, s.c.Client, "default", selector))
}

// images asks each pod's testapp which image it runs: pod name -> image.
func (s *suite) images(t *testing.T, selector string) map[string]string {
	t.Helper()
	ctx := context.Background()
	pods, err := podsOf(ctx, s.c.Client, "default", selector)
	must(t, err)
	out := map[string]string{}
	for n, p := range pods {
		app, err := appAt(ctx, p.Status.PodIP)
		must(t, err)
		out[n] = app.Image
	}
	return out
}

// testAdvancedStatefulSet: advanced-statefulset.yaml — 5 pods web-0..4 in parallel; an
// image change recreates them at most 3 at a time (maxUnavailable 3) and every pod ends
// on the new image. Then advanced-statefulset-inplace.yaml — reserveOrdinals [1] runs
// web-0,2,3,4,5; an image change updates them in place (same UIDs).
func (s *suite) testAdvancedStatefulSet(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx", "nginx:1.25-alpine")
	s.apply(t, example(t, "advanced-statefulset.yaml"))
	s.waitStatefulSet(t, "web", 2*time.Minute, "5 ready", setUpdatedReady(5))
	t.Logf("kubectl get asts:\n%s", s.kubectl(t, "get", "asts", "web"))
	// maxUnavailable 3: sample how many of the 5 are not ready during the rollout.
	stop := make(chan struct{})
	maxDown := make(chan int, 1)
	go func() {
		worst := 0
		for {
			select {
			case <-stop:
				maxDown <- worst
				return
			case <-time.After(100 * time.Millisecond):
			}
			pods, err := podsOf(ctx, s.c.Client, "default", "app=nginx")
			if err != nil {
				continue
			}
			ready := 0
			for _, p := range pods {
				if p.DeletionTimestamp == nil && harness.RunningReady(&p) == nil {
					ready++
				}
			}
			worst = max(worst, 5-ready)
		}
	}()
	s.kubectl(t, "patch", "statefulsets.apps.kruise.io", "web", "--type=json",
		"-p", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.25-alpine"}]`)
	s.waitStatefulSet(t, "web", 3*time.Minute, "5 updated and ready", setUpdatedReady(5))
	close(stop)
	worst := <-maxDown
	imgs := s.images(t, "app=nginx")
	for n, img := range imgs {
		if img != "docker.io/library/nginx:1.25-alpine" {
			t.Errorf("%s runs %s", n, img)
		}
	}
	if worst > 3 {
		t.Errorf("%d pods were unavailable at once, maxUnavailable is 3", worst)
	}
	t.Logf("rolled 5 pods to nginx:1.25-alpine, at most %d unavailable at once (maxUnavailable 3)", worst)
	s.deleteStatefulSet(t, "web", "app=nginx")

	s.apply(t, example(t, "advanced-statefulset-inplace.yaml"))
	defer s.deleteStatefulSet(t, "web", "app=nginx")
	s.waitStatefulSet(t, "web", 2*time.Minute, "5 ready", setUpdatedReady(5))
	pods, err := podsOf(ctx, s.c.Client, "default", "app=nginx")
	must(t, err)
	var names []string
	for n := range pods {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "web-0,web-2,web-3,web-4,web-5" {
		t.Errorf("pods %v, want web-0,2,3,4,5 (ordinal 1 reserved)", names)
	}
	s.kubectl(t, "patch", "statefulsets.apps.kruise.io", "web", "--type=json",
		"-p", `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.25-alpine"}]`)
	s.waitStatefulSet(t, "web", 2*time.Minute, "5 updated in place and ready", setUpdatedReady(5))
	after, err := podsOf(ctx, s.c.Client, "default", "app=nginx")
	must(t, err)
	imgs = s.images(t, "app=nginx")
	for n, p := range after {
		if b, ok := pods[n]; !ok || b.UID != p.UID || b.Status.PodIP != p.Status.PodIP {
			t.Errorf("%s was recreated, not updated in place", n)
		}
		if imgs[n] != "docker.io/library/nginx:1.25-alpine" {
			t.Errorf("%s runs %s", n, imgs[n])
		}
	}
	t.Logf("reserveOrdinals [1]: pods %v; updated in place (same UIDs and IPs), all running nginx:1.25-alpine", names)
}
