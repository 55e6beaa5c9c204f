package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// testResourceDistribution: resourcedistribution.yaml — the ConfigMap is copied into the
// namespaces labelled group=test and no other, a change of it reaches the copies,
// unlabelling a namespace removes its copy, deleting the distribution removes the rest.
func (s *suite) testResourceDistribution(t *testing.T) {
	ctx := context.Background()
	for _, ns := range []string{"team-a", "team-b", "team-c"} {
		s.kubectl(t, "create", "namespace", ns)
		defer s.deleteNamespace(t, ns)
	}
	s.kubectl(t, "label", "namespace", "team-a", "group=test")
	s.kubectl(t, "label", "namespace", "team-b", "group=test")
	s.apply(t, example(t, "resourcedistribution.yaml"))
	defer func() {
		must(t, ignoreNotFound(s.kruise.AppsV1alpha1().ResourceDistributions().Delete(ctx, "sample", metav1.DeleteOptions{})))
	}()
	copies := func(want map[string]string) func(context.Context) error {
		return func(ctx context.Context) error {
			for _, ns := range []string{"team-a", "team-b", "team-c"} {
				cm, err := s.c.Client.CoreV1().ConfigMaps(ns).Get(ctx, "game-demo", metav1.GetOptions{})
				switch {
				case apierrors.IsNotFound(err):
					if want[ns] != "" {
						return fmt.Errorf("no copy in %s", ns)
					}
				case err != nil:
					return err
				default:
					if want[ns] == "" {
						return fmt.Errorf("a copy in %s", ns)
					}
					if !strings.Contains(cm.Data["game.properties"], want[ns]) {
						return fmt.Errorf("%s: %q", ns, cm.Data["game.properties"])
					}
				}
			}
			return nil
		}
	}
	must(t, harness.WaitFor(ctx, time.Minute, 250*time.Millisecond, "copies in team-a and team-b only",
		copies(map[string]string{"team-a": "lives=3", "team-b": "lives=3"})))
	s.kubectl(t, "patch", "resourcedistribution", "sample", "--type=json",
		"-p", `[{"op":"replace","path":"/spec/resource/data/game.properties","value":"enemies=aliens\nlives=5\n"}]`)
	must(t, harness.WaitFor(ctx, time.Minute, 250*time.Millisecond, "copies updated",
		copies(map[string]string{"team-a": "lives=5", "team-b": "lives=5"})))
	s.kubectl(t, "label", "namespace", "team-b", "group-")
	must(t, harness.WaitFor(ctx, time.Minute, 250*time.Millisecond, "team-b's copy removed",
		copies(map[string]string{"team-a": "lives=5"})))
	t.Logf("kubectl get distributor:\n%s", s.kubectl(t, "get", "distributor"))
	must(t, s.kruise.AppsV1alpha1().ResourceDistributions().Delete(ctx, "sample", metav1.DeleteOptions{}))
	must(t, harness.WaitFor(ctx, time.Minute, 250*time.Millisecond, "copies removed with the distribution", copies(nil)))
	t.Logf("copied into team-a and team-b (not team-c); update reached both; unlabelled team-b lost its copy; deletion removed the rest")
}

// testDeletionProtection: deletion-protection.yaml — the Deployment labelled Always cannot
// be deleted; the Cascading namespace cannot be deleted while a pod runs in it; without
// the label and the pods both go. A CloneSet labelled Always cannot be deleted either.
func (s *suite) testDeletionProtection(t *testing.T) {
	ctx := context.Background()
	s.push(t, "nginx:alpine")
	s.apply(t, example(t, "deletion-protection.yaml"))
	defer func() {
		if _, err := s.c.Client.CoreV1().Namespaces().Get(ctx, "protected-ns", metav1.GetOptions{}); err == nil {
			s.kubectl(t, "label", "namespace", "protected-ns", "policy.kruise.io/delete-protection-")
			s.deleteNamespace(t, "protected-ns")
		}
	}()
	must(t, harness.WaitFor(ctx, 2*time.Minute, 500*time.Millisecond, "protected-deploy's pod running", func(ctx context.Context) error {
		pods, err := podsOf(ctx, s.c.Client, "protected-ns", "app=protected")
		if err != nil {
			return err
		}
		for _, p := range pods {
			if harness.RunningReady(&p) == nil {
				return nil
			}
		}
		return fmt.Errorf("%d pods, none running", len(pods))
	}))
	refused := func(args ...string) string {
		out, err := s.run(ctx, "", "kubectl", append([]string{"delete"}, args...)...)
		if err == nil {
			t.Fatalf("kubectl delete %s succeeded: %s", strings.Join(args, " "), out)
		}
		if !strings.Contains(out, "policy.kruise.io/delete-protection") {
			t.Errorf("kubectl delete %s: %s; want the refusal to name the label", strings.Join(args, " "), out)
		}
		return strings.TrimSpace(out)
	}
	t.Logf("deployment: %s", refused("deployment", "protected-deploy", "-n", "protected-ns"))
	t.Logf("namespace: %s", refused("namespace", "protected-ns"))
	s.kubectl(t, "label", "deployment", "protected-deploy", "-n", "protected-ns", "policy.kruise.io/delete-protection-")
	s.kubectl(t, "delete", "deployment", "protected-deploy", "-n", "protected-ns")
	must(t, waitNoPods(ctx, s.c.Client, "protected-ns", "app=protected"))
	// Cascading: with no active pod left the namespace may go, label and all.
	s.deleteNamespace(t, "protected-ns")
	t.Logf("without the Deployment's label and its pod, both went (the namespace still labelled Cascading)")

	s.apply(t, example(t, "cloneset-basic.yaml"), "replicas: 3", "replicas: 1")
	defer s.deleteCloneSet(t, "cs-demo", "app=cs")
	s.kubectl(t, "label", "clone", "cs-demo", "policy.kruise.io/delete-protection=Always")
	t.Logf("CloneSet: %s", refused("clone", "cs-demo"))
	s.kubectl(t, "label", "clone", "cs-demo", "policy.kruise.io/delete-protection-")
}

// testContainerLaunchPriority: container-launch-priority.yaml — in ordered-pod the sidecar
// starts before main (main waits on the barrier until the sidecar is ready); in
// weighted-pod the sidecar (priority 1) starts before main (priority 0). Both pods end
// with every container running.
func (s *suite) testContainerLaunchPriority(t *testing.T) {
	ctx := context.Background()
	s.push(t, "busybox", "nginx")
	s.apply(t, example(t, "container-launch-priority.yaml"))
	defer func() {
		for _, p := range []string{"ordered-pod", "weighted-pod"} {
			must(t, ignoreNotFound(deletePodAndWait(ctx, s.c.Client, "default", p)))
		}
	}()
	for _, name := range []string{"ordered-pod", "weighted-pod"} {
		p := s.waitPod(t, name, 3*time.Minute, "every container running", harness.RunningReady)
		side, main := containerStatus(p, "sidecar"), containerStatus(p, "main")
		sideAt, mainAt := side.State.Running.StartedAt.Time, main.State.Running.StartedAt.Time
		if !sideAt.Before(mainAt) && !sideAt.Equal(mainAt) || side.RestartCount != 0 || main.RestartCount != 0 {
			t.Errorf("%s: sidecar started %s, main %s (restarts %d, %d): want the sidecar first", name, sideAt, mainAt, side.RestartCount, main.RestartCount)
		}
		t.Logf("%s: sidecar started %s, main %s (%s later)", name, sideAt.Format(time.RFC3339), mainAt.Format(time.RFC3339), mainAt.Sub(sideAt))
	}
}
