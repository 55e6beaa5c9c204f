package manager

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kubefake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
)

// fakeController runs until ctx ends, or until stop is closed (a controller that
// stops on its own); running is closed when it starts, onStop runs when it returns.
type fakeController struct {
	running chan struct{}
	stop    chan struct{}
	onStop  func()
	// ignoreCtx: only stop stops it (a controller stuck in its work).
	ignoreCtx bool
}

func (*fakeController) Name() string    { return "fake" }
func (*fakeController) HasSynced() bool { return true }
func (c *fakeController) Run(ctx context.Context, _ int) {
	if c.running != nil {
		close(c.running)
	}
	done := ctx.Done()
	if c.ignoreCtx {
		done = nil
	}
	select {
	case <-done:
	case <-c.stop:
	}
	if c.onStop != nil {
		c.onStop()
	}
}

func constructor(c *fakeController) NewFunc {
	return func(context.Context, *ControllerContext) (Controller, error) { return c, nil }
}

var errCannotStart = errors.New("cannot start")

func failing(context.Context, *ControllerContext) (Controller, error) { return nil, errCannotStart }

func testOptions(leaderElect bool) *Options {
	o := NewOptions()
	o.BindAddress = "127.0.0.1:0"
	o.LeaderElection.LeaderElect = leaderElect
	return o
}

func testClients() (clients, *kubefake.Clientset) {
	kube := kubefake.NewClientset()
	return clients{
		kube:     kube,
		kruise:   kruisefake.NewClientset(),
		recorder: func(string) record.EventRecorder { return record.NewFakeRecorder(100) },
	}, kube
}

// runAsync runs the manager and returns its result on a channel; a lost lease fails t.
func runAsync(t *testing.T, ctx context.Context, o *Options, c clients, constructors []NewFunc) <-chan error {
	return runAsyncOnLost(ctx, o, c, constructors, func() { t.Error("the lease was lost") })
}

// runAsyncOnLost is runAsync with onLost in place of exiting the process.
func runAsyncOnLost(ctx context.Context, o *Options, c clients, constructors []NewFunc, onLost func()) <-chan error {
	result := make(chan error, 1)
	go func() { result <- run(ctx, o, c, constructors, onLost) }()
	return result
}

func await(t *testing.T, result <-chan error) error {
	t.Helper()
	select {
	case err := <-result:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the manager did not return")
		return nil
	}
}

func lease(t *testing.T, ctx context.Context, c clients, o *Options) *coordinationv1.Lease {
	t.Helper()
	l, err := c.kube.CoordinationV1().Leases(o.LeaderElection.ResourceNamespace).Get(ctx, o.LeaderElection.ResourceName, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("lease: %v", err)
	}
	return l
}

// A controller that cannot be built stops the manager with its error (the process
// exits non-zero), and the controllers built before it never run.
func TestRunReturnsTheErrorOfAControllerThatCannotStart(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c, _ := testClients()
	var ran atomic.Bool
	first := &fakeController{onStop: func() { ran.Store(true) }}
	err := await(t, runAsync(t, ctx, testOptions(false), c, []NewFunc{constructor(first), failing}))
	if !errors.Is(err, errCannotStart) {
		t.Fatalf("run returned %v, want %v", err, errCannotStart)
	}
	if ran.Load() {
		t.Error("the controller built before the failing one ran")
	}
}

// A controller that stops while the manager should run is an error too.
func TestRunReturnsAnErrorWhenAControllerStopsOnItsOwn(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c, _ := testClients()
	quitter := &fakeController{stop: make(chan struct{})}
	close(quitter.stop)
	err := await(t, runAsync(t, ctx, testOptions(false), c, []NewFunc{constructor(&fakeController{}), constructor(quitter)}))
	if err == nil {
		t.Fatal("run returned nil, want an error")
	}
}

// The leader whose controllers cannot start gives up its lease before returning the
// error: a standby replica takes over at once instead of after the lease expires.
func TestLeaderReleasesTheLeaseWhenAControllerCannotStart(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c, kube := testClients()
	o := testOptions(true)
	err := await(t, runAsync(t, ctx, o, c, []NewFunc{failing}))
	if !errors.Is(err, errCannotStart) {
		t.Fatalf("run returned %v, want %v", err, errCannotStart)
	}
	l := lease(t, ctx, c, o)
	if h := ptr.Deref(l.Spec.HolderIdentity, "<nil>"); h != "" {
		t.Errorf("lease holderIdentity %q after the failure, want it released (empty)", h)
	}
	// The lease was held before it was released: created with a holder, then updated.
	var holders []string
	for _, a := range kube.Actions() {
		if a.GetResource().Resource != "leases" || (a.GetVerb() != "create" && a.GetVerb() != "update") {
			continue
		}
		obj := a.(interface{ GetObject() runtime.Object }).GetObject().(*coordinationv1.Lease)
		holders = append(holders, ptr.Deref(obj.Spec.HolderIdentity, "<nil>"))
	}
	if len(holders) < 2 || holders[0] == "" || holders[len(holders)-1] != "" {
		t.Errorf("lease holders written %q, want a holder first and an empty one last", holders)
	}
}

// On shutdown the controllers stop while this replica still holds the lease; only then
// is the lease released, and the manager returns nil.
func TestLeaderReleasesTheLeaseAfterTheControllersStopped(t *testing.T) {
	logger, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c, _ := testClients()
	o := testOptions(true)
	holderWhenStopped := make(chan string, 1)
	ctrl := &fakeController{running: make(chan struct{}), onStop: func() {
		l, err := c.kube.CoordinationV1().Leases(o.LeaderElection.ResourceNamespace).Get(context.Background(), o.LeaderElection.ResourceName, metav1.GetOptions{})
		if err != nil {
			holderWhenStopped <- err.Error()
			return
		}
		holderWhenStopped <- ptr.Deref(l.Spec.HolderIdentity, "<nil>")
	}}
	result := runAsync(t, ctx, o, c, []NewFunc{constructor(ctrl)})
	within(t, ctrl.running, "the controller never ran")
	logger.Info("Leading; shutting down")
	cancel()
	if err := await(t, result); err != nil {
		t.Fatalf("run returned %v on shutdown, want nil", err)
	}
	if h := receive(t, holderWhenStopped, "the controller never stopped"); h == "" || h == "<nil>" {
		t.Errorf("lease holder %q while the controller stopped, want this replica", h)
	}
	if h := ptr.Deref(lease(t, context.Background(), c, o).Spec.HolderIdentity, "<nil>"); h != "" {
		t.Errorf("lease holderIdentity %q after shutdown, want it released (empty)", h)
	}
}

// A leader that loses its lease gives up at once, as kube-controller-manager does: the
// process exits (onLost) while a controller is still stuck in its work, without
// waiting for it; only a test's onLost returns, and then the manager still stops the
// controller and returns an error. (Issue 32: a controller kept running, unresponsive,
// after it logged that it was no longer leading.)
func TestLeaderExitsAtOnceWhenTheLeaseIsLost(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	c, kube := testClients()
	o := testOptions(true)
	o.LeaderElection.LeaseDuration = metaDuration(3 * time.Second)
	o.LeaderElection.RenewDeadline = metaDuration(2 * time.Second)
	o.LeaderElection.RetryPeriod = metaDuration(200 * time.Millisecond)
	// The fake clientset does not check resourceVersions: once another replica wrote
	// the lease, reject this replica's lease writes as the API server would (a
	// reactor is added before the clientset is used: its reactor chain has no lock).
	var reject atomic.Bool
	kube.PrependReactor("update", "leases", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if !reject.Load() {
			return false, nil, nil
		}
		return true, nil, apierrors.NewConflict(coordinationv1.Resource("leases"), o.LeaderElection.ResourceName, errors.New("the object has been modified"))
	})
	// A controller that does not stop when told to, until the test lets it.
	stuck, stopped := make(chan struct{}), make(chan struct{})
	ctrl := &fakeController{running: make(chan struct{}), stop: stuck, onStop: func() { close(stopped) }}
	ctrl.ignoreCtx = true
	lost := make(chan struct{})
	result := runAsyncOnLost(ctx, o, c, []NewFunc{constructor(ctrl)}, func() { close(lost) })
	within(t, ctrl.running, "the controller never ran")

	l := lease(t, ctx, c, o)
	l.Spec.HolderIdentity = ptr.To("another-replica")
	l.Spec.RenewTime = &metav1.MicroTime{Time: time.Now()}
	if _, err := c.kube.CoordinationV1().Leases(l.Namespace).Update(ctx, l, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	reject.Store(true)
	within(t, lost, "the lease was lost and the manager did not give up")
	select {
	case <-stopped:
		t.Fatal("the manager waited for the controller before giving up")
	case err := <-result:
		t.Fatalf("run returned %v before the stuck controller stopped", err)
	default:
	}
	close(stuck)
	if err := await(t, result); !errors.Is(err, errLostLeadership) {
		t.Fatalf("run returned %v, want %v", err, errLostLeadership)
	}
}

func within(t *testing.T, done <-chan struct{}, failure string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal(failure)
	}
}

func receive[T any](t *testing.T, ch <-chan T, failure string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal(failure)
		var zero T
		return zero
	}
}
