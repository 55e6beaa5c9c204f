package nodebench

import (
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	kubepod "k8s.io/kubernetes/pkg/api/v1/pod"

	"github.com/kruise-native/kruise-native/pkg/podutil"
)

// Tracker follows one workload's pods through a rollout from its pod watch: when each
// first runs the new image, when all of them do, and which UIDs and addresses survived.
// Observe is called from the watch's handlers; it is safe for concurrent use.
type Tracker struct {
	container string
	digest    string // the new image's digest, sha256:...
	start     time.Time
	want      int

	mu sync.Mutex
	// before: the pods' UIDs and addresses when the rollout began.
	beforeUIDs map[types.UID]bool
	beforeIPs  map[string]bool
	// pods: every pod of the workload the watch holds now (terminating ones too).
	pods map[types.UID]*corev1.Pod
	// started: when each pod was first seen running the new image, since start.
	started map[types.UID]time.Duration
	// done: when the workload was first seen complete (zero: not yet).
	done     time.Duration
	doneChan chan struct{}
}

// NewTracker starts a rollout's tracking: the pods before it, want pods at the end, the
// new image's digest (registry digest, as kubelet reports it in imageID) in container.
func NewTracker(before []corev1.Pod, container, digest string, want int, start time.Time) *Tracker {
	t := &Tracker{container: container, digest: digest, start: start, want: want,
		beforeUIDs: map[types.UID]bool{}, beforeIPs: map[string]bool{},
		pods: map[types.UID]*corev1.Pod{}, started: map[types.UID]time.Duration{}, doneChan: make(chan struct{})}
	for i := range before {
		p := &before[i]
		t.beforeUIDs[p.UID] = true
		if p.Status.PodIP != "" {
			t.beforeIPs[p.Status.PodIP] = true
		}
		t.pods[p.UID] = p
	}
	return t
}

// Begin sets the rollout's start: the watch runs from before the patch, and nothing it
// sees before the start can run the new image.
func (t *Tracker) Begin(start time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.start = start
}

// Observe records a pod as the watch saw it at at; deleted: the pod is gone.
func (t *Tracker) Observe(at time.Time, p *corev1.Pod, deleted bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if deleted {
		delete(t.pods, p.UID)
	} else {
		t.pods[p.UID] = p
		if _, seen := t.started[p.UID]; !seen && RunsImage(p, t.container, t.digest) {
			t.started[p.UID] = at.Sub(t.start)
		}
	}
	if t.done == 0 && t.completeLocked() {
		t.done = at.Sub(t.start)
		close(t.doneChan)
	}
}

// completeLocked: exactly want pods, each running the new image and Ready, none
// terminating (an old pod still being deleted counts against it).
func (t *Tracker) completeLocked() bool {
	if len(t.pods) != t.want {
		return false
	}
	for _, p := range t.pods {
		if p.DeletionTimestamp != nil || !RunsImage(p, t.container, t.digest) || !kubepod.IsPodReady(p) {
			return false
		}
	}
	return true
}

// Done is closed once the rollout is complete.
func (t *Tracker) Done() <-chan struct{} { return t.doneChan }

// Outcome is what the tracker saw.
type Outcome struct {
	// Wall: start until complete (zero: never).
	Wall time.Duration
	// PerPod: start until each pod that came to run the new image was first seen
	// running it (pods deleted meanwhile included).
	PerPod []time.Duration
	// UIDsKept and IPsKept count the pods now whose UID, or address, a pod had before.
	UIDsKept, IPsKept int
	// Pods now.
	Pods int
}

// Outcome reads what the tracker saw so far.
func (t *Tracker) Outcome() Outcome {
	t.mu.Lock()
	defer t.mu.Unlock()
	o := Outcome{Wall: t.done, Pods: len(t.pods)}
	for _, d := range t.started {
		o.PerPod = append(o.PerPod, d)
	}
	for uid, p := range t.pods {
		if t.beforeUIDs[uid] {
			o.UIDsKept++
		}
		if p.Status.PodIP != "" && t.beforeIPs[p.Status.PodIP] {
			o.IPsKept++
		}
	}
	return o
}

// RunsImage: the pod's container runs the image of digest, started (no startup probe
// pending). kubelet reports the image's repository digest in imageID
// (docker.io/bench/x@sha256:...).
func RunsImage(p *corev1.Pod, container, digest string) bool {
	s := podutil.ContainerStatus(p, container)
	return s != nil && s.State.Running != nil && s.Started != nil && *s.Started &&
		digest != "" && strings.HasSuffix(s.ImageID, "@"+digest)
}
