package chaos

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/internal/localstack"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// fault is one case: kill picks and kills a component and returns its name; it is
// started again after the outage unless forGood.
type fault struct {
	name    string
	forGood bool
	pick    func(ctx context.Context, st *localstack.Stack) (string, error)
}

func fixed(name string) func(context.Context, *localstack.Stack) (string, error) {
	return func(context.Context, *localstack.Stack) (string, error) { return name, nil }
}

// The order matters: the member killed for good comes last, so every other case runs on
// a full etcd cluster.
var faults = []fault{
	{name: "one kruise-apiserver replica", pick: fixed(localstack.Replica(localstack.KruiseAPIServer, 0))},
	{name: "the etcd leader", pick: func(ctx context.Context, st *localstack.Stack) (string, error) { return st.EtcdLeader(ctx) }},
	{name: "kruise-controller's leader", pick: func(ctx context.Context, st *localstack.Stack) (string, error) { return st.ControllerLeader(ctx) }},
	{name: "kube-apiserver", pick: fixed(localstack.KubeAPIServer)},
	{name: "one etcd member for good", forGood: true, pick: func(ctx context.Context, st *localstack.Stack) (string, error) {
		leader, err := st.EtcdLeader(ctx)
		if err != nil {
			return "", err
		}
		for _, m := range st.EtcdMembers() {
			if m != leader {
				return m, nil // a follower: the cluster goes on with 2 of 3
			}
		}
		return "", fmt.Errorf("no etcd follower")
	}},
}

// result is one row of the report.
type result struct {
	fault, killed               string
	acked, missing, failed      int
	failedStored                int
	retried                     int
	causes                      string
	recovered                   time.Duration
	rolloutPods, rolloutUpdated int
	rolloutTook                 time.Duration
	rolloutOK, inFlight         bool
	err                         string
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func TestChaos(t *testing.T) {
	if !optedIn() {
		t.Skip("opt-in: make test-chaos (or KRUISE_CHAOS=1)")
	}
	c := framework.Get(t)
	pods := envInt("CHAOS_PODS", 200)
	outage := time.Duration(envInt("CHAOS_OUTAGE", 5)) * time.Second
	cfg := *c.Config
	cfg.QPS, cfg.Burst = 1000, 2000
	cfg.Timeout = 10 * time.Second
	kc := kruiseclient.NewForConfigOrDie(&cfg)
	started := time.Now().UTC()

	var results []result
	for i, f := range faults {
		f := f
		t.Run(fmt.Sprintf("%d-%s", i, f.name), func(t *testing.T) {
			r := &result{fault: f.name}
			defer func() {
				if t.Failed() && r.err == "" {
					r.err = "case failed (test log)"
				}
				results = append(results, *r)
			}()
			runCase(t, c, &cfg, kc, f, pods, outage, r)
			if r.missing != 0 {
				t.Errorf("%d acknowledged writes missing", r.missing)
			}
			if !r.rolloutOK {
				t.Errorf("rollout: %d pods, %d updated, want exactly %d updated", r.rolloutPods, r.rolloutUpdated, pods)
			}
		})
	}
	path := os.Getenv("CHAOS_REPORT")
	if path == "" {
		suffix := ".md"
		if pods < 200 {
			suffix = "-small.md"
		}
		path = filepath.Join(c.Root, "test", "integration", "chaos", "results", started.Format("2006-01-02T1504Z")+suffix)
	}
	if err := writeReport(path, started, pods, outage, results); err != nil {
		t.Errorf("writing the report: %v", err)
	}
	t.Logf("report: %s", path)
}

// runCase: a rollout of pods pods in flight and a steady write load; the fault; the
// component back after outage (unless for good); then the rollout must finish with
// exactly pods pods and every acknowledged write must be there.
func runCase(t *testing.T, c *framework.Cluster, cfg *rest.Config, kc kruiseclient.Interface, f fault, pods int, outage time.Duration, r *result) {
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	name := "rollout"
	cs := rolloutCloneSet(name, int32(pods))
	if _, err := kc.AppsV1alpha1().CloneSets(ns).Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Available, not only ready: CloneSet updates unavailable pods first without counting
	// them against maxUnavailable, so a rollout of pods still in minReadySeconds would
	// replace them all at once.
	before := waitCloneSet(t, kc, ns, name, 5*time.Minute, func(s v1alpha1.CloneSetStatus) bool {
		return s.AvailableReplicas == int32(pods)
	})

	load, err := startWriteLoad(cfg, ns, "w", 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer load.finish()
	// The load must be acknowledging writes before the fault starts.
	framework.WaitFor(t, 30*time.Second, func() (bool, error) { return load.ackedCount() > 0, nil })
	if _, err := kc.AppsV1alpha1().CloneSets(ns).Patch(ctx, name, types.MergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"main","image":"nginx:1.26"}]}}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	rolloutStart := time.Now()
	// the rollout has started (a new revision, some pods updated)
	during := waitCloneSet(t, kc, ns, name, 3*time.Minute, func(s v1alpha1.CloneSetStatus) bool {
		return s.UpdateRevision != before.Status.UpdateRevision && s.UpdatedReplicas > 0
	})
	r.inFlight = during.Status.UpdatedAvailableReplicas < int32(pods)

	killed, err := f.pick(ctx, c.Stack)
	if err != nil {
		t.Fatal(err)
	}
	r.killed = killed
	faultAt := time.Now()
	c.KillComponent(t, killed)
	t.Logf("killed %s", killed)
	time.Sleep(outage)
	if !f.forGood {
		c.StartComponent(t, killed)
		t.Logf("%s back after %s", killed, time.Since(faultAt).Round(100*time.Millisecond))
	}
	// writes go on until they have succeeded for a while
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		failed, rec := load.failuresSince(faultAt)
		return failed == 0 && time.Since(faultAt) > outage+3*time.Second ||
			rec > 0 && time.Since(faultAt.Add(rec)) > 3*time.Second, nil
	})
	load.finish()
	r.failed, r.recovered = load.failuresSince(faultAt)
	r.retried, r.causes = load.retriedSince(faultAt), load.causesSince(faultAt)
	r.acked = load.ackedCount()
	r.missing = -1
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		missing, stored, err := load.check(ctx)
		if err != nil {
			return false, err
		}
		r.missing, r.failedStored = len(missing), stored
		if len(missing) > 0 {
			t.Logf("acknowledged then missing: %v", missing)
		}
		return true, nil
	})

	// the rollout finishes with exactly pods pods, all updated
	deadline := time.Now().Add(8 * time.Minute)
	for time.Now().Before(deadline) {
		got, err := kc.AppsV1alpha1().CloneSets(ns).Get(ctx, name, metav1.GetOptions{})
		list, lerr := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + name})
		if err == nil && lerr == nil {
			r.rolloutPods, r.rolloutUpdated = len(list.Items), 0
			for _, p := range list.Items {
				if p.Labels["controller-revision-hash"] == got.Status.UpdateRevision && p.DeletionTimestamp == nil {
					r.rolloutUpdated++
				}
			}
			s := got.Status
			if got.Status.ObservedGeneration == got.Generation && s.UpdatedReadyReplicas == int32(pods) &&
				s.Replicas == int32(pods) && r.rolloutPods == pods && r.rolloutUpdated == pods {
				r.rolloutOK = true
				r.rolloutTook = time.Since(rolloutStart)
				break
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	// free the nodes for the next case
	_ = kc.AppsV1alpha1().CloneSets(ns).Delete(ctx, name, metav1.DeleteOptions{})
	t.Logf("%+v", *r)
}

func rolloutCloneSet(name string, replicas int32) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To(replicas),
			// each batch of the rollout (10% of the pods) waits 3 s to be available: the
			// rollout is still in flight when the fault comes
			MinReadySeconds: 3,
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{
				MaxUnavailable: ptr.To(intstr.FromString("10%")),
			},
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
		},
	}
}

func waitCloneSet(t *testing.T, kc kruiseclient.Interface, ns, name string, timeout time.Duration, cond func(v1alpha1.CloneSetStatus) bool) *v1alpha1.CloneSet {
	t.Helper()
	var cs *v1alpha1.CloneSet
	framework.WaitFor(t, timeout, func() (bool, error) {
		var err error
		cs, err = kc.AppsV1alpha1().CloneSets(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return cs.Status.ObservedGeneration == cs.Generation && cond(cs.Status), nil
	})
	return cs
}
