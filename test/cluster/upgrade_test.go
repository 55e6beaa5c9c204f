package cluster

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	appsv1alpha1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

const (
	loadNamespace = "upgrade-load"
	loadClients   = 4
	// loadPause between one client's requests: 4 clients write about 60 CloneSets a second.
	loadPause = 50 * time.Millisecond
)

// write is one create request of the load: its CloneSet and outcome.
type write struct {
	name       string
	start, end time.Time
	err        error
}

// buildNextImages builds the images again under another tag (`make images` with
// -version), so the upgrade really replaces every image, and imports them.
func (s *suite) buildNextImages(t *testing.T, tag string) {
	t.Helper()
	out := s.c.Layout.StatePath("images-" + tag)
	cmd := exec.Command("go", "run", "./hack/images", "-version", tag, "-out", out)
	cmd.Dir = s.c.Layout.Root
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("building the %s images: %v\n%s", tag, err, b)
	}
	var files []string
	for _, n := range []string{"kruise-apiserver", "kruise-controller", "kruise-node-daemon"} {
		files = append(files, filepath.Join(out, n+"_"+tag+".oci.tar"))
	}
	must(t, s.c.ImportImages(context.Background(), files...))
}

// runLoad writes CloneSets (replicas 0) from loadClients clients until stop is closed, each
// through kube-apiserver and the aggregation layer, and returns every request.
func (s *suite) runLoad(t *testing.T, stop <-chan struct{}) func() []write {
	t.Helper()
	cfg := *s.c.Config
	cfg.QPS, cfg.Burst = 200, 200
	cfg.Timeout = 10 * time.Second
	kc, err := kruiseclient.NewForConfig(&cfg)
	must(t, err)
	var mu sync.Mutex
	var writes []write
	var wg sync.WaitGroup
	for w := 0; w < loadClients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				name := fmt.Sprintf("load-%d-%05d", w, i)
				cs := &appsv1alpha1.CloneSet{
					ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: loadNamespace},
					Spec: appsv1alpha1.CloneSetSpec{
						Replicas: ptr.To[int32](0),
						Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
						Template: corev1.PodTemplateSpec{
							ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
							Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:alpine"}}},
						},
					},
				}
				wr := write{name: name, start: time.Now()}
				_, wr.err = kc.AppsV1alpha1().CloneSets(loadNamespace).Create(context.Background(), cs, metav1.CreateOptions{})
				wr.end = time.Now()
				mu.Lock()
				writes = append(writes, wr)
				mu.Unlock()
				time.Sleep(loadPause)
			}
		}()
	}
	return func() []write {
		wg.Wait()
		sort.Slice(writes, func(i, j int) bool { return writes[i].start.Before(writes[j].start) })
		return writes
	}
}

// testHelmUpgradeUnderLoad: helm upgrade to images of a new tag while 4 clients write
// CloneSets. In single mode the only kruise-apiserver replica is replaced (Recreate, its
// etcd on the PersistentVolume), so writes fail for a while: the target is no
// acknowledged write lost, and the window of failed requests is measured. With two
// replicas on the outside etcd the target is no failed request at all.
func (s *suite) testHelmUpgradeUnderLoad(t *testing.T) {
	ctx := context.Background()
	next := s.version + "-next"
	if !s.nextBuilt {
		begin := time.Now()
		s.buildNextImages(t, next)
		s.nextBuilt = true
		t.Logf("images %s built and imported in %s", next, time.Since(begin).Round(100*time.Millisecond))
	}

	_, err := s.c.Client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: loadNamespace}}, metav1.CreateOptions{})
	must(t, err)
	defer s.deleteNamespace(t, loadNamespace)

	stop := make(chan struct{})
	collect := s.runLoad(t, stop)
	time.Sleep(5 * time.Second) // the load's steady state before the upgrade, for comparison

	upgradeBegin := time.Now()
	args := append([]string{"upgrade", releaseName, s.chartDir(), "--reuse-values", "--wait", "--timeout", "5m",
		"--set", "apiserver.image=kruise-native/kruise-apiserver:" + next,
		"--set", "controller.image=kruise-native/kruise-controller:" + next,
		"--set", "nodeDaemon.image=kruise-native/kruise-node-daemon:" + next,
	}, s.chartValues()...)
	out, upErr := s.run(ctx, "", "helm", args...)
	upgraded := time.Since(upgradeBegin)
	availErr := s.waitAPIServicesAvailable(ctx, 2*time.Minute)
	available := time.Since(upgradeBegin)
	_, readyErr := s.waitKruiseSystemReady(ctx, 2*time.Minute)
	time.Sleep(10 * time.Second) // the load after the upgrade
	close(stop)
	writes := collect()
	if upErr != nil || availErr != nil || readyErr != nil {
		s.dumpKruiseSystem(t)
		t.Fatalf("upgrade: %v; APIServices: %v; pods: %v", upErr, availErr, readyErr)
	}
	t.Logf("helm upgrade returned in %s; APIServices Available %s after it began\n%s",
		upgraded.Round(100*time.Millisecond), available.Round(100*time.Millisecond), firstLines(out, 5))

	// Every pod of kruise-system runs the new images.
	pods, err := s.c.Client.CoreV1().Pods(kruiseNamespace).List(ctx, metav1.ListOptions{})
	must(t, err)
	for _, p := range pods.Items {
		if p.Labels["app.kubernetes.io/name"] == "" {
			continue
		}
		for _, st := range p.Status.ContainerStatuses {
			if !strings.HasSuffix(st.Image, ":"+next) {
				t.Errorf("pod %s container %s runs %s after the upgrade", p.Name, st.Name, st.Image)
			}
		}
	}

	// Acknowledged writes are all there; the failures form one window.
	var acked, failed, failedStored int
	var firstFail, lastFail time.Time
	reasons := map[string]int{}
	list, err := s.kruise.AppsV1alpha1().CloneSets(loadNamespace).List(ctx, metav1.ListOptions{})
	must(t, err)
	have := map[string]bool{}
	for _, cs := range list.Items {
		have[cs.Name] = true
	}
	for _, w := range writes {
		stored := have[w.name]
		if w.err == nil {
			acked++
			if !stored {
				t.Errorf("acknowledged write LOST: CloneSet %s (created at %s)", w.name, w.end.Format(time.RFC3339Nano))
			}
			continue
		}
		failed++
		if stored {
			failedStored++
		}
		reasons[shortReason(w.err)]++
		if firstFail.IsZero() {
			firstFail = w.start
		}
		lastFail = w.end
	}
	var reasonList []string
	for r, n := range reasons {
		reasonList = append(reasonList, fmt.Sprintf("%d× %s", n, r))
	}
	sort.Strings(reasonList)
	window := lastFail.Sub(firstFail)
	if s.outside != nil && failed > 0 {
		// Two replicas on a shared etcd: the rolling update keeps one serving, and the
		// one going away keeps serving while it leaves the Service (shutdown delay).
		t.Errorf("%d requests failed during the upgrade of two replicas on an outside etcd, want 0", failed)
	}
	failures := "none"
	if failed > 0 {
		failures = fmt.Sprintf("window %s, the first %s after the upgrade began: %s", window.Round(10*time.Millisecond),
			firstFail.Sub(upgradeBegin).Round(10*time.Millisecond), strings.Join(reasonList, "; "))
	}
	t.Logf("UPGRADE RESULT (%s): %d writes by %d clients, %d acknowledged, 0 of them lost = %v; %d failed (%d of those stored anyway); failed requests: %s",
		s.etcdMode(), len(writes), loadClients, acked, !t.Failed(), failed, failedStored, failures)
}

// shortReason is an error's kind for the tally: the API status reason, or its message's
// start.
func shortReason(err error) string {
	if st, ok := err.(apierrors.APIStatus); ok {
		s := st.Status()
		return fmt.Sprintf("%d %s", s.Code, s.Reason)
	}
	msg := err.Error()
	if len(msg) > 80 {
		msg = msg[:80]
	}
	return msg
}

// deleteNamespace deletes a namespace and waits until it is gone (the namespace
// controller deletes its Kruise objects through the aggregated API first).
func (s *suite) deleteNamespace(t *testing.T, ns string) {
	t.Helper()
	ctx := context.Background()
	must(t, ignoreNotFound(s.c.Client.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})))
	must(t, harness.WaitFor(ctx, 3*time.Minute, time.Second, "namespace "+ns+" gone", func(ctx context.Context) error {
		n, err := s.c.Client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		var conds []string
		for _, c := range n.Status.Conditions {
			if c.Status == corev1.ConditionTrue {
				conds = append(conds, c.Message)
			}
		}
		return fmt.Errorf("phase %s %s", n.Status.Phase, strings.Join(conds, "; "))
	}))
}
