package podworkload

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// fakeStatusAPI serves a kind whose "status" is a ConfigMap's data; each write returns
// the object one resourceVersion on.
type fakeStatusAPI struct {
	writes int
	err    error
}

func (f *fakeStatusAPI) Status(o *corev1.ConfigMap) map[string]string { return o.Data }

func (f *fakeStatusAPI) UpdateStatus(_ context.Context, o *corev1.ConfigMap, s map[string]string) (*corev1.ConfigMap, error) {
	f.writes++
	if f.err != nil {
		return nil, f.err
	}
	out := o.DeepCopy()
	out.Data = s
	rv, _ := strconv.Atoi(o.ResourceVersion)
	out.ResourceVersion = strconv.Itoa(rv + 1)
	return out, nil
}

func (f *fakeStatusAPI) Get(context.Context, string, string) (*corev1.ConfigMap, error) {
	return nil, errors.New("not served")
}

// deferringAPI adds a deferral rule: urgent says whether the status is news about the
// workload itself.
type deferringAPI struct {
	*fakeStatusAPI
	urgent bool
}

func (d deferringAPI) Urgent(_, _ map[string]string) bool { return d.urgent }

func stored(data map[string]string) *corev1.ConfigMap {
	o := owner(false)
	o.ResourceVersion, o.Data = "10", data
	return o
}

func TestStatusWriterWrite(t *testing.T) {
	old, changed := map[string]string{"ready": "1"}, map[string]string{"ready": "2"}
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "cs", errors.New("stale"))
	gone := apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, "cs")
	tests := []struct {
		name        string
		computed    map[string]string
		deferring   bool // the kind has a DeferralRule
		urgent      bool
		outcome     Outcome
		noRequeue   bool
		err         error
		wantWrites  int
		wantWritten bool // an object is returned, and the syncs wait for the cache to show it
		wantErr     string
		wantRequeue time.Duration
	}{{
		name: "unchanged: no write", computed: old,
	}, {
		name: "changed: written, and a cache still showing the old version is not acted on", computed: changed,
		wantWrites: 1, wantWritten: true,
	}, {
		name: "changed, the write conflicts: the error, and nothing remembered", computed: changed, err: conflict,
		wantWrites: 1, wantErr: "updating status",
	}, {
		name: "changed, the workload is gone: no error", computed: changed, err: gone,
		wantWrites: 1,
	}, {
		name: "a kind without a deferral rule writes after pod writes", computed: changed,
		outcome: Outcome{PodWrites: true}, wantWrites: 1, wantWritten: true,
	}, {
		name: "deferral rule, pod writes sent: deferred, and a sync asked for", computed: changed, deferring: true,
		outcome: Outcome{PodWrites: true}, wantRequeue: StatusDeferral,
	}, {
		name: "deferral rule, no pod writes: written", computed: changed, deferring: true,
		wantWrites: 1, wantWritten: true,
	}, {
		name: "deferral rule, the sync failed: written", computed: changed, deferring: true,
		outcome: Outcome{PodWrites: true, Failed: true}, wantWrites: 1, wantWritten: true,
	}, {
		name: "deferral rule, news about the workload itself: written", computed: changed, deferring: true, urgent: true,
		outcome: Outcome{PodWrites: true}, wantWrites: 1, wantWritten: true,
	}, {
		name: "deferral rule, no requeue to ask: written", computed: changed, deferring: true,
		outcome: Outcome{PodWrites: true}, noRequeue: true, wantWrites: 1, wantWritten: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &fakeStatusAPI{err: tt.err}
			var sapi StatusAPI[*corev1.ConfigMap, map[string]string] = api
			if tt.deferring {
				sapi = deferringAPI{fakeStatusAPI: api, urgent: tt.urgent}
			}
			w := NewStatusWriter(sapi)
			var r Requeue
			if !tt.noRequeue {
				tt.outcome.Requeue = &r
			}
			obj := stored(old)
			out, err := w.Write(context.Background(), obj, tt.computed, tt.outcome)
			if (err != nil) != (tt.wantErr != "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if tt.err != nil && err != nil && !errors.Is(err, tt.err) {
				t.Errorf("err %v does not wrap %v", err, tt.err)
			}
			if api.writes != tt.wantWrites {
				t.Errorf("%d writes, want %d", api.writes, tt.wantWrites)
			}
			if (out != nil) != tt.wantWritten {
				t.Fatalf("returned %v, want written %t", out, tt.wantWritten)
			}
			if got := r.Get(); got != tt.wantRequeue {
				t.Errorf("requeue %v, want %v", got, tt.wantRequeue)
			}
			ctx := context.Background()
			if current := w.Current(ctx, obj); current == tt.wantWritten {
				t.Errorf("Current(the copy before the write) = %t", current)
			}
			if out != nil && !w.Current(ctx, out) {
				t.Error("Current(the copy written) = false")
			}
		})
	}
}

// A status whose only change is a time: not written, unless the kind says its times
// are news (ExactStatus).
func TestStatusWriterTimes(t *testing.T) {
	t0 := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	t1 := metav1.NewTime(t0.Add(time.Minute))
	for _, exact := range []bool{false, true} {
		api := &timesAPI{}
		var sapi StatusAPI[*corev1.ConfigMap, metav1.Time] = api
		if exact {
			sapi = exactTimesAPI{api}
		}
		obj := stored(nil)
		obj.CreationTimestamp = t0
		if _, err := NewStatusWriter(sapi).Write(context.Background(), obj, t1, Outcome{}); err != nil {
			t.Fatal(err)
		}
		if wrote := api.writes == 1; wrote != exact {
			t.Errorf("exact %t: wrote %t", exact, wrote)
		}
	}
}

// timesAPI serves a time as the status: an object's creation timestamp.
type timesAPI struct{ writes int }

func (*timesAPI) Status(o *corev1.ConfigMap) metav1.Time { return o.CreationTimestamp }

func (a *timesAPI) UpdateStatus(_ context.Context, o *corev1.ConfigMap, t metav1.Time) (*corev1.ConfigMap, error) {
	a.writes++
	out := o.DeepCopy()
	out.CreationTimestamp = t
	return out, nil
}

type exactTimesAPI struct{ *timesAPI }

func (exactTimesAPI) ExactStatus() {}

// Until the cache shows the write, every copy older than it is held off; once it has
// shown it (or a newer one), the expectation is gone. Forget drops it for a deleted
// workload, and ends its deferral.
func TestStatusWriterCurrentAndForget(t *testing.T) {
	ctx := context.Background()
	api := &fakeStatusAPI{}
	w := NewStatusWriter[*corev1.ConfigMap, map[string]string](deferringAPI{fakeStatusAPI: api})
	obj := stored(map[string]string{"ready": "1"})
	out, err := w.Write(ctx, obj, map[string]string{"ready": "2"}, Outcome{})
	if err != nil || out == nil {
		t.Fatalf("Write = %v, %v", out, err)
	}
	for range 2 {
		if w.Current(ctx, obj) {
			t.Fatal("the copy before the write reported current")
		}
	}
	newer := out.DeepCopy()
	newer.ResourceVersion = "12"
	if !w.Current(ctx, newer) || !w.Current(ctx, obj) {
		t.Error("once a newer copy was seen, the expectation should be gone")
	}

	if _, err := w.Write(ctx, out, map[string]string{"ready": "3"}, Outcome{}); err != nil {
		t.Fatal(err)
	}
	w.Forget(out)
	if !w.Current(ctx, out) {
		t.Error("after Forget, the old copy should no longer be held off")
	}

	// A deferral ended by Forget starts afresh: the lag of the old one does not count.
	t0 := time.Unix(1000, 0)
	w.now = func() time.Time { return t0 }
	var r Requeue
	deferred := Outcome{PodWrites: true, Requeue: &r}
	if got, _ := w.Write(ctx, out, map[string]string{"ready": "4"}, deferred); got != nil {
		t.Fatal("not deferred")
	}
	w.Forget(out)
	w.now = func() time.Time { return t0.Add(MaxStatusLag) }
	if got, _ := w.Write(ctx, out, map[string]string{"ready": "4"}, deferred); got != nil {
		t.Error("after Forget, a deferral should start afresh")
	}
	// An unchanged status ends the deferral too.
	w.now = func() time.Time { return t0.Add(2 * MaxStatusLag) }
	if _, err := w.Write(ctx, out, out.Data, deferred); err != nil {
		t.Fatal(err)
	}
	w.now = func() time.Time { return t0.Add(3 * MaxStatusLag) }
	if got, _ := w.Write(ctx, out, map[string]string{"ready": "5"}, deferred); got != nil {
		t.Error("after an unchanged status, a deferral should start afresh")
	}
}
