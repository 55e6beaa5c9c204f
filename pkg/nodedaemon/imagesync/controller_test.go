package imagesync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

const node = "node-a"

// harness runs a Controller against a fake API (with status writes counted) and a fake
// CRI runtime on a real socket.
type harness struct {
	kruise  *kruisefake.Clientset
	runtime *fakecri.Server
	writes  atomic.Int32
	stop    context.CancelFunc
	done    chan struct{}
}

func startRuntime(t *testing.T) (*fakecri.Server, *criclient.Client) {
	t.Helper()
	dir, err := os.MkdirTemp("", "imagesync") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	srv := fakecri.NewServer()
	if err := srv.Start(filepath.Join(dir, "cri.sock")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	cli, err := criclient.New(srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	return srv, cli
}

func start(t *testing.T, kruise *kruisefake.Clientset, kube *kubefake.Clientset, srv *fakecri.Server, cri *criclient.Client) *harness {
	t.Helper()
	h := &harness{kruise: kruise, runtime: srv, done: make(chan struct{})}
	kruise.PrependReactor("update", "nodeimages", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() == "status" {
			h.writes.Add(1)
		}
		return false, nil, nil
	})
	_, ctx := ktesting.NewTestContext(t)
	ctx, h.stop = context.WithCancel(ctx)
	factory := kruiseinformers.NewSharedInformerFactory(kruise, 0)
	// What kruise-apiserver's pullsecrets subresource would serve: the secrets there are.
	secrets := func(ctx context.Context) ([]corev1.Secret, error) {
		list, err := kube.CoreV1().Secrets("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		return list.Items, nil
	}
	c, err := New(node, kruise, factory.Apps().V1beta1().NodeImages(), secrets, cri.Images,
		Options{Puller: imagepuller.Options{Backoff: imagepuller.Backoff{Initial: time.Millisecond, Max: time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	go func() {
		defer close(h.done)
		if err := c.Run(ctx); err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	t.Cleanup(func() {
		h.stop()
		<-h.done
		factory.Shutdown()
	})
	return h
}

func (h *harness) waitStatus(t *testing.T, what string, cond func(*v1beta1.NodeImageStatus) bool) *v1beta1.NodeImage {
	t.Helper()
	var ni *v1beta1.NodeImage
	err := wait.PollUntilContextTimeout(context.Background(), 20*time.Millisecond, 20*time.Second, true, func(ctx context.Context) (bool, error) {
		var err error
		ni, err = h.kruise.AppsV1beta1().NodeImages().Get(ctx, node, metav1.GetOptions{})
		return err == nil && cond(&ni.Status), err
	})
	if err != nil {
		t.Fatalf("waiting for %s: %v; status: %+v", what, err, ni.Status)
	}
	return ni
}

func TestControllerPullsReportsAndSurvivesRestart(t *testing.T) {
	ni := &v1beta1.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: node}, Spec: v1beta1.NodeImageSpec{Images: map[string]v1beta1.ImageSpec{
		"app": {Tags: []v1beta1.ImageTagSpec{{Tag: "v1"}, {Tag: "v2"}},
			PullSecrets: []v1beta1.ReferenceObject{{Namespace: "ns", Name: "missing"}}},
		"fail.invalid/app": {Tags: []v1beta1.ImageTagSpec{{Tag: "v1", PullPolicy: &v1beta1.ImageTagPullPolicy{BackoffLimit: ptr.To[int32](1)}}}},
	}}}
	kruise := kruisefake.NewSimpleClientset(ni)
	// The first status write loses to another writer: it is computed again and retried.
	var conflicted atomic.Bool
	kruise.PrependReactor("update", "nodeimages", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() == "status" && conflicted.CompareAndSwap(false, true) {
			return true, nil, apierrors.NewConflict(v1beta1.Resource("nodeimages"), node, nil)
		}
		return false, nil, nil
	})
	kube := kubefake.NewSimpleClientset()
	srv, cri := startRuntime(t)
	srv.SetPullBehavior("fail.invalid/*", fakecri.PullBehavior{Message: "503 Service Unavailable"})
	h := start(t, kruise, kube, srv, cri)

	got := h.waitStatus(t, "every pull finished", func(s *v1beta1.NodeImageStatus) bool { return s.FirstSyncStatus != nil })
	s := got.Status
	if s.Desired != 3 || s.Succeeded != 2 || s.Failed != 1 || s.Pulling != 0 {
		t.Errorf("counts desired/succeeded/failed/pulling = %d/%d/%d/%d, want 3/2/1/0", s.Desired, s.Succeeded, s.Failed, s.Pulling)
	}
	if s.FirstSyncStatus.Status != v1beta1.SyncStatusFailed || !strings.Contains(s.FirstSyncStatus.Message, "fail.invalid/app:v1") {
		t.Errorf("firstSyncStatus = %+v, want Failed naming fail.invalid/app:v1", s.FirstSyncStatus)
	}
	for _, tag := range s.ImageStatuses["app"].Tags {
		if tag.Phase != v1beta1.ImagePhaseSucceeded || tag.ImageID == "" || tag.Progress != 100 {
			t.Errorf("app:%s = %+v, want Succeeded with an imageID", tag.Tag, tag)
		}
		if !strings.Contains(tag.Message, "pull secret ns/missing not found or not an image pull secret") {
			t.Errorf("app:%s message %q does not mention the missing secret", tag.Tag, tag.Message)
		}
	}
	failed := s.ImageStatuses["fail.invalid/app"].Tags[0]
	if failed.Phase != v1beta1.ImagePhaseFailed || !strings.Contains(failed.Message, "after 2 attempts") || !strings.Contains(failed.Message, "503 Service Unavailable") {
		t.Errorf("failed tag = %+v, want Failed after 2 attempts with the runtime's message", failed)
	}
	if n := srv.PullAttempts("fail.invalid/app:v1"); n != 2 {
		t.Errorf("runtime saw %d attempts of the failing image, want 2", n)
	}
	// Coalesced: the results of pulls that end together are written at once (here
	// usually one write, plus the conflicting one), not once per puller callback
	// (there are more than ten) nor a Waiting status first.
	t.Logf("%d status writes for 3 tags (one of them a conflict)", h.writes.Load())
	if n := h.writes.Load(); n > 4 {
		t.Errorf("%d status writes, want at most 4", n)
	}

	// A new daemon on a fresh runtime: finished tags are not pulled again, a new one is.
	h.stop()
	<-h.done
	srv2, cri2 := startRuntime(t)
	cur, err := kruise.AppsV1beta1().NodeImages().Get(context.Background(), node, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cur.Spec.Images["busybox"] = v1beta1.ImageSpec{Tags: []v1beta1.ImageTagSpec{{Tag: "1.36"}}}
	if _, err := kruise.AppsV1beta1().NodeImages().Update(context.Background(), cur, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h2 := start(t, kruise, kube, srv2, cri2)
	h2.waitStatus(t, "the new tag", func(s *v1beta1.NodeImageStatus) bool {
		tags := s.ImageStatuses["busybox"].Tags
		return len(tags) == 1 && tags[0].Phase == v1beta1.ImagePhaseSucceeded && s.Desired == 4 && s.Succeeded == 3
	})
	var pulled []string
	for _, p := range srv2.Pulls() {
		pulled = append(pulled, p.Image)
	}
	if len(pulled) != 1 || pulled[0] != "busybox:1.36" {
		t.Errorf("after the restart the runtime pulled %v, want only busybox:1.36", pulled)
	}

	// A tag removed from spec drops its status.
	cur, _ = kruise.AppsV1beta1().NodeImages().Get(context.Background(), node, metav1.GetOptions{})
	delete(cur.Spec.Images, "fail.invalid/app")
	if _, err := kruise.AppsV1beta1().NodeImages().Update(context.Background(), cur, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h2.waitStatus(t, "the removed tag gone", func(s *v1beta1.NodeImageStatus) bool {
		_, ok := s.ImageStatuses["fail.invalid/app"]
		return !ok && s.Desired == 3 && s.Failed == 0 && s.Succeeded == 3
	})
}

func TestControllerRestartMidPullPullsAgain(t *testing.T) {
	started := metav1.NewTime(time.Now().Add(-time.Minute).Truncate(time.Second))
	ni := &v1beta1.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: node},
		Spec: v1beta1.NodeImageSpec{Images: map[string]v1beta1.ImageSpec{"app": {Tags: []v1beta1.ImageTagSpec{{Tag: "v1", Version: 3}}}}},
		Status: v1beta1.NodeImageStatus{Desired: 1, Pulling: 1, ImageStatuses: map[string]v1beta1.ImageStatus{
			"app": {Tags: []v1beta1.ImageTagStatus{{Tag: "v1", Version: 3, Phase: v1beta1.ImagePhasePulling, StartTime: &started}}}}}}
	kruise := kruisefake.NewSimpleClientset(ni)
	srv, cri := startRuntime(t)
	h := start(t, kruise, kubefake.NewSimpleClientset(), srv, cri)
	got := h.waitStatus(t, "the interrupted pull to finish", func(s *v1beta1.NodeImageStatus) bool { return s.Succeeded == 1 })
	tag := got.Status.ImageStatuses["app"].Tags[0]
	if tag.Version != 3 || !tag.StartTime.Equal(&started) || tag.CompletionTime == nil {
		t.Errorf("tag = %+v, want version 3, the first start time and a completion time", tag)
	}
	if n := srv.PullAttempts("app:v1"); n != 1 {
		t.Errorf("%d pulls, want 1", n)
	}
}
