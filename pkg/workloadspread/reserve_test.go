package workloadspread

import (
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// spread builds a counted spread: one subset per missing value ("-1" unlimited,
// "x" unschedulable with 5 missing).
func spread(missing ...string) *appsv1beta1.WorkloadSpread {
	ws := &appsv1beta1.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Generation: 1}}
	ws.Status.ObservedGeneration = 1
	for i, m := range missing {
		name := fmt.Sprintf("s%d", i)
		ws.Spec.Subsets = append(ws.Spec.Subsets, appsv1beta1.WorkloadSpreadSubset{Name: name})
		st := appsv1beta1.WorkloadSpreadSubsetStatus{Name: name}
		if m == "x" {
			st.MissingReplicas = 5
			st.Conditions = []appsv1beta1.WorkloadSpreadSubsetCondition{{Type: appsv1beta1.SubsetSchedulable, Status: corev1.ConditionFalse}}
		} else {
			n, _ := strconv.Atoi(m)
			st.MissingReplicas = int32(n)
		}
		ws.Status.SubsetStatuses = append(ws.Status.SubsetStatuses, st)
	}
	return ws
}

func TestReserve(t *testing.T) {
	now := metav1.NewTime(time.Unix(100, 0))
	for _, tc := range []struct {
		name     string
		ws       *appsv1beta1.WorkloadSpread
		want     Decision
		subset   string
		missing0 int32
	}{
		{"first with room", spread("1", "-1"), Reserved, "s0", 0},
		{"first full, next unlimited", spread("0", "-1"), Reserved, "s1", 0},
		{"unlimited stays unlimited", spread("-1"), Reserved, "s0", -1},
		{"all full", spread("0", "0"), Full, "", 0},
		{"unschedulable skipped", spread("x", "2"), Reserved, "s1", 5},
		{"status of another generation", func() *appsv1beta1.WorkloadSpread { w := spread("3"); w.Generation = 2; return w }(), NotReady, "", 3},
		{"status missing a subset", func() *appsv1beta1.WorkloadSpread {
			w := spread("3")
			w.Spec.Subsets = append(w.Spec.Subsets, appsv1beta1.WorkloadSpreadSubset{Name: "new"})
			return w
		}(), NotReady, "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, s := Reserve(tc.ws, "p", now)
			if d != tc.want || s != tc.subset {
				t.Fatalf("got %v %q, want %v %q", d, s, tc.want, tc.subset)
			}
			if got := tc.ws.Status.SubsetStatuses[0].MissingReplicas; got != tc.missing0 {
				t.Errorf("s0 missingReplicas %d, want %d", got, tc.missing0)
			}
			if d == Reserved {
				for _, st := range tc.ws.Status.SubsetStatuses {
					if _, ok := st.CreatingPods["p"]; ok != (st.Name == s) {
						t.Errorf("creatingPods of %s holds p: %v", st.Name, ok)
					}
				}
			}
		})
	}
}

// The same pod asking twice (a retried admission) keeps its slot and takes no second.
func TestReserveIsIdempotent(t *testing.T) {
	ws := spread("2", "-1")
	now := metav1.NewTime(time.Unix(100, 0))
	Reserve(ws, "p", now)
	if d, s := Reserve(ws, "p", now); d != Reserved || s != "s0" || ws.Status.SubsetStatuses[0].MissingReplicas != 1 {
		t.Fatalf("second call: %v %q missing %d", d, s, ws.Status.SubsetStatuses[0].MissingReplicas)
	}
}

func TestRelease(t *testing.T) {
	ws := spread("0", "-1")
	now := metav1.NewTime(time.Unix(100, 0))
	if !Release(ws, "s0", "p", now) || ws.Status.SubsetStatuses[0].MissingReplicas != 1 {
		t.Fatalf("release: missing %d", ws.Status.SubsetStatuses[0].MissingReplicas)
	}
	if Release(ws, "s0", "p", now) || ws.Status.SubsetStatuses[0].MissingReplicas != 1 {
		t.Fatal("a second release of the same pod changed the status")
	}
	if !Release(ws, "s1", "q", now) || ws.Status.SubsetStatuses[1].MissingReplicas != Unlimited {
		t.Fatal("release in an unlimited subset")
	}
	if Release(ws, "gone", "q", now) {
		t.Fatal("release in an unknown subset")
	}
}

// occStore is a status with a resourceVersion: a write decided on an older version
// conflicts, as the API server's optimistic concurrency does.
type occStore struct {
	mu sync.Mutex
	rv int
	ws *appsv1beta1.WorkloadSpread
}

func (s *occStore) read() (*appsv1beta1.WorkloadSpread, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ws.DeepCopy(), s.rv
}

func (s *occStore) write(ws *appsv1beta1.WorkloadSpread, rv int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rv != s.rv {
		return false
	}
	s.ws, s.rv = ws, s.rv+1
	return true
}

// 20 concurrent creates against subsets capped at 3 and 5 and an unlimited last one:
// every pod is placed, and no capped subset takes more than its room.
func TestReserveUnderConcurrencyNeverOverfills(t *testing.T) {
	for _, caps := range [][]string{{"3", "-1"}, {"3", "5", "-1"}, {"3", "5"}, {"0", "1", "1"}} {
		t.Run(fmt.Sprint(caps), func(t *testing.T) {
			store := &occStore{ws: spread(caps...)}
			var wg sync.WaitGroup
			placed := make([]string, 20)
			for i := range placed {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						ws, rv := store.read()
						d, s := Reserve(ws, fmt.Sprintf("p%d", i), metav1.Now())
						if d != Reserved {
							return
						}
						if store.write(ws, rv) {
							placed[i] = s
							return
						}
					}
				}()
			}
			wg.Wait()
			count := map[string]int{}
			for _, s := range placed {
				count[s]++
			}
			final, _ := store.read()
			capacity := 0
			for i, c := range caps {
				name := fmt.Sprintf("s%d", i)
				n, _ := strconv.Atoi(c)
				if n >= 0 && count[name] > n {
					t.Errorf("%s took %d pods, cap %d", name, count[name], n)
				}
				if got := len(final.Status.SubsetStatuses[i].CreatingPods); got != count[name] {
					t.Errorf("%s records %d creating pods, %d placed", name, got, count[name])
				}
				if n < 0 {
					capacity = 20
				} else if capacity < 20 {
					capacity += n
				}
			}
			if capacity > 20 {
				capacity = 20
			}
			if len(placed)-count[""] != capacity {
				t.Errorf("placed %d pods, room for %d", len(placed)-count[""], capacity)
			}
		})
	}
}

func TestMaxReplicas(t *testing.T) {
	pct := intstr.FromString("25%")
	three := intstr.FromInt32(3)
	all, over := intstr.FromString("100%"), intstr.FromString("300%") // validation refuses the second
	negative := intstr.FromInt32(-1)                                  // and this one
	for _, tc := range []struct {
		max      *intstr.IntOrString
		replicas int32
		want     int32
	}{{nil, 10, Unlimited}, {&three, 10, 3}, {&pct, 10, 3}, {&pct, 8, 2}, {&pct, 0, 0},
		{&all, math.MaxInt32, math.MaxInt32}, {&over, math.MaxInt32, math.MaxInt32}, {&negative, 10, 0}} {
		got, err := MaxReplicas(&appsv1beta1.WorkloadSpreadSubset{MaxReplicas: tc.max}, tc.replicas)
		if err != nil || got != tc.want {
			t.Errorf("MaxReplicas(%v, %d) = %d, %v; want %d", tc.max, tc.replicas, got, err, tc.want)
		}
	}
}
