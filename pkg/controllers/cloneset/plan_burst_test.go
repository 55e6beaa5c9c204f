package cloneset

import (
	"math"
	"strings"
	"testing"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/batch"
)

// However large the numbers the user wrote, one plan creates, deletes and updates at
// most batch.Burst pods each; the rest comes in later syncs (issue 32: a CloneSet of
// 2147483647 replicas built every pod before creating any, and took the node down).
func TestComputeIsBoundedByBurst(t *testing.T) {
	const huge = math.MaxInt32
	many := func(c string, n int) string { return strings.Repeat(c, n) }
	cases := []struct {
		name                      string
		pods                      string
		l                         Limits
		creates, deletes, updates int
		createCurrent             int
	}{
		{name: "huge replicas from nothing", pods: "",
			l:       Limits{Replicas: huge, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			creates: batch.Burst},
		{name: "huge replicas with a quota's 20 pods", pods: many("U", 20),
			l:       Limits{Replicas: huge, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			creates: batch.Burst},
		{name: "huge partition: the burst fills the update share first, then the current one", pods: "",
			l:       Limits{Replicas: huge, Partition: huge - 10, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			creates: batch.Burst, createCurrent: batch.Burst - 10},
		{name: "huge surge", pods: many("O", 30),
			l:       Limits{Replicas: 30, MaxSurge: huge, ScaleMaxUnavailable: -1},
			creates: 30},
		{name: "huge scale-up limit", pods: many("u", 3),
			l:       Limits{Replicas: huge, MaxUnavailable: 1, ScaleMaxUnavailable: huge},
			creates: batch.Burst},
		{name: "scale down of more than the burst", pods: many("U", 3*batch.Burst),
			l:       Limits{Replicas: 0, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			deletes: batch.Burst},
		{name: "more pods specified for deletion than the burst, and their replacements", pods: many("D", batch.Burst+7),
			l:       Limits{Replicas: batch.Burst + 7, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			deletes: batch.Burst, creates: batch.Burst},
		{name: "huge maxUnavailable updates at most the burst", pods: many("O", 2*batch.Burst),
			l:       Limits{Replicas: 2 * batch.Burst, MaxUnavailable: huge, ScaleMaxUnavailable: -1},
			updates: batch.Burst},
		{name: "below the burst nothing changes", pods: "",
			l:       Limits{Replicas: 7, MaxUnavailable: 1, ScaleMaxUnavailable: -1},
			creates: 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(pods(tc.pods), tc.l)
			if n := got.CreateUpdated + got.CreateCurrent; n != tc.creates || got.CreateCurrent != tc.createCurrent {
				t.Errorf("creates %d updated + %d current, want %d in all, %d current", got.CreateUpdated, got.CreateCurrent, tc.creates, tc.createCurrent)
			}
			if len(got.Delete) != tc.deletes {
				t.Errorf("deletes %d, want %d", len(got.Delete), tc.deletes)
			}
			if len(got.Update) != tc.updates {
				t.Errorf("updates %d, want %d", len(got.Update), tc.updates)
			}
		})
	}
}

// Creations the burst defers still count as updated: while they are missing, no old
// pod is updated in their place (which would leave more old pods than the partition
// asks for once they come).
func TestComputeDeferredCreationsCountAsUpdated(t *testing.T) {
	l := Limits{Replicas: 2*batch.Burst + 2, Partition: 2, MaxUnavailable: 2, ScaleMaxUnavailable: -1}
	got := Compute(pods("OO"), l)
	if got.CreateUpdated != batch.Burst || got.CreateCurrent != 0 || len(got.Update) != 0 {
		t.Fatalf("plan %+v, want %d updated creations and no update", got, batch.Burst)
	}
}
