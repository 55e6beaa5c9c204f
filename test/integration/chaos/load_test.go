package chaos

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// writeLoad creates small Kruise objects (CloneSets of 0 replicas, stored by
// kruise-apiserver in the etcd cluster) one after the other at a steady rate, and
// remembers which creates were acknowledged, when calls failed and why, and the
// retriable answers its client retried.
type writeLoad struct {
	kc     kruiseclient.Interface
	ns     string
	prefix string
	every  time.Duration

	mu     sync.Mutex
	acked  []string
	failed []string // creates that returned an error: stored or not, the client cannot tell
	calls  []call
	// retried are the answers with Retry-After (429 or 5xx) the client got: client-go
	// waits and sends the request again, so the call may still succeed.
	retried []time.Time
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

type call struct {
	at    time.Time
	ok    bool
	cause string // of a failure: failureCause
}

// startWriteLoad runs the load with a client of its own on cfg, whose transport counts
// the retriable answers.
func startWriteLoad(cfg *rest.Config, ns, prefix string, every time.Duration) (*writeLoad, error) {
	w := &writeLoad{ns: ns, prefix: prefix, every: every, stop: make(chan struct{}), done: make(chan struct{})}
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return retryCounter{next: rt, w: w} })
	kc, err := kruiseclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	w.kc = kc
	go w.run()
	return w, nil
}

// retryCounter records each answer client-go retries (it does for 429 and 5xx with
// Retry-After, for every verb).
type retryCounter struct {
	next http.RoundTripper
	w    *writeLoad
}

func (c retryCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500) && resp.Header.Get("Retry-After") != "" {
		c.w.mu.Lock()
		c.w.retried = append(c.w.retried, time.Now())
		c.w.mu.Unlock()
	}
	return resp, err
}

// failureCause names what a failed call ended with: the API status ("500
// InternalError"), the client's own timeout, or no answer at all.
func failureCause(err error) string {
	var status apierrors.APIStatus
	switch {
	case errors.As(err, &status):
		s := status.Status()
		return fmt.Sprintf("%d %s", s.Code, s.Reason)
	case errors.Is(err, context.DeadlineExceeded):
		return "client timeout"
	default:
		return "no answer"
	}
}

func (w *writeLoad) run() {
	defer close(w.done)
	t := time.NewTicker(w.every)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		name := fmt.Sprintf("%s-%05d", w.prefix, i)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := w.kc.AppsV1alpha1().CloneSets(w.ns).Create(ctx, emptyCloneSet(name, w.prefix), metav1.CreateOptions{})
		cancel()
		w.mu.Lock()
		c := call{at: time.Now(), ok: err == nil}
		if err == nil {
			w.acked = append(w.acked, name)
		} else {
			w.failed = append(w.failed, name)
			c.cause = failureCause(err)
		}
		w.calls = append(w.calls, c)
		w.mu.Unlock()
	}
}

// finish stops the load and waits for its last call; it may be called more than once.
func (w *writeLoad) finish() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

// ackedCount is how many creates were acknowledged.
func (w *writeLoad) ackedCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.acked)
}

// check lists the acknowledged writes that are not there, and counts the failed ones
// that are (applied, but the answer was lost: the client must not assume either way).
func (w *writeLoad) check(ctx context.Context) (missing []string, failedStored int, err error) {
	list, err := w.kc.AppsV1alpha1().CloneSets(w.ns).List(ctx, metav1.ListOptions{LabelSelector: "chaos-load=" + w.prefix})
	if err != nil {
		return nil, 0, err
	}
	have := map[string]bool{}
	for _, cs := range list.Items {
		have[cs.Name] = true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, n := range w.acked {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	for _, n := range w.failed {
		if have[n] {
			failedStored++
		}
	}
	return missing, failedStored, nil
}

// failuresSince counts failed calls from t on, and returns how long after t writes
// succeeded again for good (0 when none failed).
func (w *writeLoad) failuresSince(t time.Time) (failed int, recovered time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var lastFail time.Time
	for _, c := range w.calls {
		if c.at.Before(t) || c.ok {
			continue
		}
		failed++
		lastFail = c.at
	}
	if failed == 0 {
		return 0, 0
	}
	for _, c := range w.calls {
		if c.ok && c.at.After(lastFail) {
			return failed, c.at.Sub(t)
		}
	}
	return failed, -1
}

// retriedSince counts the retriable answers from t on.
func (w *writeLoad) retriedSince(t time.Time) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, at := range w.retried {
		if !at.Before(t) {
			n++
		}
	}
	return n
}

// causesSince counts the failed calls from t on by cause, e.g. "500 InternalError×2,
// client timeout×1" ("" when none failed).
func (w *writeLoad) causesSince(t time.Time) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	counts := map[string]int{}
	for _, c := range w.calls {
		if !c.at.Before(t) && !c.ok {
			counts[c.cause]++
		}
	}
	causes := make([]string, 0, len(counts))
	for cause, n := range counts {
		causes = append(causes, fmt.Sprintf("%s×%d", cause, n))
	}
	sort.Strings(causes)
	return strings.Join(causes, ", ")
}

func emptyCloneSet(name, load string) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"chaos-load": load}},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
		},
	}
}
