package nodebench

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// auditTail: writes made up to this long after a rollout is done still count (status
// updates that follow the last pod), as make bench's controller phases count them.
const auditTail = 3 * time.Second

// Env is the running node and what every rollout shares.
type Env struct {
	Cluster        *harness.Cluster
	AuditLog       string
	Pods           int
	MaxUnavailable intstr.IntOrString
	// Timeout bounds each of a rollout's waits (ready, rollout, status, deletion).
	Timeout time.Duration
	Logf    func(format string, args ...any)

	clients clients // the cluster's, built once by Run
}

func newClients(c *harness.Cluster) (clients, error) {
	kc, err := kruiseclient.NewForConfig(c.Config)
	if err != nil {
		return clients{}, err
	}
	return clients{kube: c.Client, kruise: kc}, nil
}

// processes are what the rollouts' CPU seconds are read for: the node's kubelet and
// containerd (with its shims, one per pod sandbox, and the runc each runs), the two
// controllers and the node daemon (pulling the images a pre-download asks for). The
// pods' processes are looked up once per rollout, when its sampler starts (a pod may
// restart between rollouts, not during one); only the shims, which come and go with the
// pods, are looked for on every tick.
func (e *Env) processes() []Process {
	c := e.Cluster
	return []Process{
		{Name: "kubelet", Find: Pid(c.Pid("kubelet"))},
		{Name: "containerd", Find: Pid(c.Pid("containerd")), Children: true},
		{Name: "containerd shims", Find: Matching("", "containerd-shim-runc-v2", c.Layout.ContainerdSocket()), Children: true},
		{Name: "kube-controller-manager", Find: Pid(c.Pid("kube-controller-manager"))},
		{Name: "kruise-controller", Find: Fixed(Matching("kubepods", "kruise-controller")())},
		{Name: "kruise-node-daemon", Find: Fixed(Matching("kubepods", "kruise-node-daemon")())},
	}
}

// Rollout runs one workload's rollout in a namespace of its own (nb-<name>), from a
// repository of its own (bench/<name>: the node pulls each new image once, cold), and
// deletes it afterwards, waiting until its pods are gone so the next one has the node
// to itself. A CloneSet without preDownload is marked to pre-download nothing (the
// gate is on for the whole run).
func (e *Env) Rollout(ctx context.Context, workload string, preDownload bool, name string, round int) (r Rollout) {
	ns := "nb-" + name
	repo := "bench/" + name
	r = Rollout{Workload: workload, PreDownload: preDownload, Round: round, Namespace: ns, Pods: e.Pods, From: repo + ":v1", To: repo + ":v2"}
	if err := e.rollout(ctx, &r); err != nil {
		r.Error = err.Error()
		e.Logf("%s: %v", name, err)
	}
	if err := e.deleteNamespace(ctx, ns); err != nil && r.Error == "" {
		r.Error = "cleaning up: " + err.Error()
	}
	return r
}

func (e *Env) rollout(ctx context.Context, r *Rollout) error {
	kube := e.clients.kube
	if _, err := e.Cluster.Registry.Push(ctx, r.From); err != nil {
		return err
	}
	newDigest, err := e.Cluster.Registry.Push(ctx, r.To)
	if err != nil {
		return err
	}
	if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: r.Namespace}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	s := spec{workload: r.Workload, namespace: r.Namespace, replicas: int32(e.Pods), maxUnavailable: e.MaxUnavailable, image: r.From,
		ignorePreDownload: !r.PreDownload}

	// Up: every pod running the old image and Ready, and the status says so.
	begin := time.Now()
	if err := e.clients.create(ctx, s); err != nil {
		return err
	}
	if err := harness.WaitFor(ctx, e.Timeout, 500*time.Millisecond, r.Namespace+": all ready", func(ctx context.Context) error {
		return e.clients.statusDone(ctx, s)
	}); err != nil {
		return err
	}
	r.ReadySeconds = round3(time.Since(begin).Seconds())
	before, err := kube.CoreV1().Pods(r.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	e.Logf("%s: %d pods of %s ready in %.1f s", r.Namespace, len(before.Items), r.From, r.ReadySeconds)

	// The rollout: the pod watch runs from before the patch.
	tr := NewTracker(before.Items, container, newDigest.String(), e.Pods, time.Time{})
	stopWatch, err := watchPods(ctx, e.clients, r.Namespace, tr)
	if err != nil {
		return err
	}
	defer stopWatch()
	auditLog, err := audit.NewReader(e.AuditLog)
	if err != nil {
		return err
	}
	sampler := StartSampler(e.processes(), 250*time.Millisecond)
	cpuStopped := false
	defer func() {
		if !cpuStopped {
			sampler.Stop()
		}
	}()
	start := time.Now()
	tr.Begin(start)
	if err := e.clients.setImage(ctx, s, r.To); err != nil {
		return err
	}
	var rolloutErr error
	select {
	case <-tr.Done():
	case <-time.After(e.Timeout):
		rolloutErr = fmt.Errorf("rollout not done after %s", e.Timeout)
	case <-ctx.Done():
		rolloutErr = ctx.Err()
	}
	o := tr.Outcome()
	r.WallSeconds = round3(o.Wall.Seconds())
	r.Summarize(o.PerPod)
	r.UIDsKept, r.IPsKept = o.UIDsKept, o.IPsKept
	if rolloutErr != nil {
		return fmt.Errorf("%w (%d pods, %d seen on the new image)", rolloutErr, o.Pods, len(o.PerPod))
	}
	if err := harness.WaitFor(ctx, e.Timeout, 200*time.Millisecond, r.Namespace+": status done", func(ctx context.Context) error {
		return e.clients.statusDone(ctx, s)
	}); err != nil {
		return err
	}
	// The counting window's end: later writes are not the rollout's.
	end := start.Add(o.Wall + auditTail)
	select {
	case <-time.After(time.Until(end)):
	case <-ctx.Done():
		return ctx.Err()
	}
	r.CPUSeconds = sampler.Stop()
	cpuStopped = true
	counts, err := auditLog.Count(audit.Filter{Namespace: r.Namespace, From: start, To: end, SkipEvents: true})
	if err != nil {
		return err
	}
	r.Writes = counts
	r.SetWrites(counts.Total(controllerClients(r.Workload)...), counts.Total())
	r.ImagePullJobs = counts["kruise-controller"]["create imagepulljobs"]
	e.Logf("%s: %s → %s in %.1f s; per pod p50 %.2f s p99 %.2f s; UIDs kept %d, IPs kept %d; controller writes/pod %.2f; CPU s %v",
		r.Namespace, r.From, r.To, r.WallSeconds, r.P50Seconds, r.P99Seconds, r.UIDsKept, r.IPsKept, r.ControllerWritesPerPod, r.CPUSeconds)
	return nil
}

// watchPods feeds the namespace's pod events to tr until the returned stop is called.
func watchPods(ctx context.Context, c clients, ns string, tr *Tracker) (func(), error) {
	f := informers.NewSharedInformerFactoryWithOptions(c.kube, 0, informers.WithNamespace(ns))
	inf := f.Core().V1().Pods().Informer()
	observe := func(obj any, deleted bool) {
		now := time.Now()
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		if p, ok := obj.(*corev1.Pod); ok {
			tr.Observe(now, p, deleted)
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { observe(obj, false) },
		UpdateFunc: func(_, obj any) { observe(obj, false) },
		DeleteFunc: func(obj any) { observe(obj, true) },
	}); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(ctx)
	f.Start(wctx.Done())
	if !cache.WaitForCacheSync(wctx.Done(), inf.HasSynced) {
		cancel()
		return nil, errors.New("pod watch did not sync")
	}
	return func() { cancel(); f.Shutdown() }, nil
}

// deleteNamespace deletes the namespace and waits until it and its pods are gone.
func (e *Env) deleteNamespace(ctx context.Context, ns string) error {
	kube := e.Cluster.Client
	if err := kube.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return harness.WaitFor(ctx, e.Timeout, 500*time.Millisecond, ns+" gone", func(ctx context.Context) error {
		pods, err := kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		if len(pods.Items) > 0 {
			return fmt.Errorf("%d pods left", len(pods.Items))
		}
		_, err = kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		if err == nil {
			return errors.New("namespace still there")
		}
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	})
}
