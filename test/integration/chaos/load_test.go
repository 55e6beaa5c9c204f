package chaos

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// writeLoad creates small Kruise objects (CloneSets of 0 replicas, stored by
// kruise-apiserver in the etcd cluster) one after the other at a steady rate, and
// remembers which creates were acknowledged and when calls failed.
type writeLoad struct {
	kc     kruiseclient.Interface
	ns     string
	prefix string
	every  time.Duration

	mu     sync.Mutex
	acked  []string
	failed []string // creates that returned an error: stored or not, the client cannot tell
	calls  []call
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

type call struct {
	at time.Time
	ok bool
}

func startWriteLoad(kc kruiseclient.Interface, ns, prefix string, every time.Duration) *writeLoad {
	w := &writeLoad{kc: kc, ns: ns, prefix: prefix, every: every, stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
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
		w.calls = append(w.calls, call{at: time.Now(), ok: err == nil})
		if err == nil {
			w.acked = append(w.acked, name)
		} else {
			w.failed = append(w.failed, name)
		}
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
