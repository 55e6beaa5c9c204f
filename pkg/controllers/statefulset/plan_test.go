package statefulset

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"
)

// states reads pods written as space-separated tokens <ordinal><state>[:priority]:
// U updated+available, u updated+unavailable, O old+available, o old+unavailable,
// followed optionally by t (terminating), f (failed), d (labelled specified-delete),
// p (held by a preDelete hook), h (held by an inPlaceUpdate hook in PreparingUpdate),
// c (claims behind their templates) or r (claims resizing).
func states(spec string) []PodState {
	var out []PodState
	for _, tok := range strings.Fields(spec) {
		tok, prio, _ := strings.Cut(tok, ":")
		i := 0
		for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
			i++
		}
		ord, err := strconv.Atoi(tok[:i])
		if err != nil {
			panic(tok)
		}
		p := PodState{Ordinal: ord}
		for _, c := range tok[i:] {
			switch c {
			case 'U':
				p.Updated, p.Available = true, true
			case 'u':
				p.Updated = true
			case 'O':
				p.Available = true
			case 'o':
			case 't':
				p.Terminating, p.Available = true, false
			case 'f':
				p.Failed, p.Available = true, false
			case 'd':
				p.SpecifiedDelete = true
			case 'p':
				p.PreparingDelete = true
			case 'h':
				p.PreparingUpdate = true
			case 'c':
				p.ClaimsStale = true
			case 'r':
				p.ClaimsResizing = true
			default:
				panic(tok)
			}
		}
		if prio != "" {
			n, err := strconv.Atoi(prio)
			if err != nil {
				panic(tok)
			}
			p.Priority = int64(n)
		}
		out = append(out, p)
	}
	return out
}

func create(ords ...int) []Creation {
	var out []Creation
	for _, o := range ords {
		out = append(out, Creation{Ordinal: o})
	}
	return out
}

func condemn(ords ...int) []Deletion {
	var out []Deletion
	for _, o := range ords {
		out = append(out, Deletion{Ordinal: o, Reason: DeleteCondemned})
	}
	return out
}

// parallel and ordered are the two pod management policies, rolling updates with
// maxUnavailable 1 and no partition; cases change what they test.
func parallel(replicas int) Params {
	return Params{Replicas: replicas, Parallel: true, RollingUpdate: true, MaxUnavailable: 1}
}

func ordered(replicas int) Params {
	return Params{Replicas: replicas, RollingUpdate: true, MaxUnavailable: 1}
}

func with(p Params, edit func(*Params)) Params { edit(&p); return p }

func specified(ords ...int) []Deletion {
	var out []Deletion
	for _, o := range ords {
		out = append(out, Deletion{Ordinal: o, Reason: DeleteSpecified})
	}
	return out
}

func TestCompute(t *testing.T) {
	cases := []struct {
		name string
		pods string
		p    Params
		want Plan
	}{
		// The examples.
		{"maxUnavailable 3: pods 4,3,2 update together", "0O 1O 2O 3O 4O",
			with(parallel(5), func(p *Params) { p.MaxUnavailable = 3 }),
			Plan{Update: []int{4, 3, 2}}},
		{"maxUnavailable 3: 1 starts as soon as one finishes", "0O 1O 2u 3U 4u",
			with(parallel(5), func(p *Params) { p.MaxUnavailable = 3 }),
			Plan{Update: []int{1}}},
		{"maxUnavailable 3: nothing while three are unavailable", "0O 1O 2u 3u 4u",
			with(parallel(5), func(p *Params) { p.MaxUnavailable = 3 }),
			Plan{}},
		{"partition 4 updates only pod 4", "0O 1O 2O 3O 4O",
			with(parallel(5), func(p *Params) { p.MaxUnavailable = 3; p.Partition = 4 }),
			Plan{Update: []int{4}}},
		{"partition 4 after pod 4 is done", "0O 1O 2O 3O 4U",
			with(parallel(5), func(p *Params) { p.MaxUnavailable = 3; p.Partition = 4 }),
			Plan{}},
		{"reserveOrdinals [1] with 5 replicas runs 0,2,3,4,5", "",
			with(parallel(5), func(p *Params) { p.Reserved = reserve(1) }),
			Plan{Create: create(0, 2, 3, 4, 5)}},
		{"appending 3 to reserveOrdinals migrates pod 3 to 6", "0U 2U 3U 4U 5U",
			with(parallel(5), func(p *Params) { p.Reserved = reserve(1, 3) }),
			Plan{Create: create(6), Delete: condemn(3)}},
		{"4 replicas: appending 3 migrates pod 3 to 5", "0U 2U 3U 4U",
			with(parallel(4), func(p *Params) { p.Reserved = reserve(1, 3) }),
			Plan{Create: create(5), Delete: condemn(3)}},
		{"OrderedReady migration creates the new ordinal first", "0U 2U 3U 4U 5U",
			with(ordered(5), func(p *Params) { p.Reserved = reserve(1, 3) }),
			Plan{Create: create(6), Waiting: "created ordinal 6"}},
		{"OrderedReady migration deletes the reserved pod once the new one is available", "0U 2U 3U 4U 5U 6U",
			with(ordered(5), func(p *Params) { p.Reserved = reserve(1, 3) }),
			Plan{Delete: condemn(3), Waiting: "deleting condemned ordinal 3"}},

		// OrderedReady: native StatefulSet behaviour.
		{"OrderedReady creates ordinal 0 first", "", ordered(3),
			Plan{Create: create(0), Waiting: "created ordinal 0"}},
		{"OrderedReady waits for the previous pod", "0U 1u", ordered(3),
			Plan{Waiting: "ordinal 1 is not available"}},
		{"OrderedReady creates the next once the previous is available", "0U 1U", ordered(3),
			Plan{Create: create(2), Waiting: "created ordinal 2"}},
		{"OrderedReady fills a gap before going on", "0U 2U", ordered(3),
			Plan{Create: create(1), Waiting: "created ordinal 1"}},
		{"OrderedReady waits for a terminating pod", "0U 1Ut 2U", ordered(3),
			Plan{Waiting: "ordinal 1 is terminating"}},
		{"OrderedReady scales down from the highest ordinal, one at a time", "0U 1U 2U 3U", ordered(2),
			Plan{Delete: condemn(3), Waiting: "deleting condemned ordinal 3"}},
		{"OrderedReady waits for a condemned pod to terminate", "0U 1U 2U 3Ut", ordered(2),
			Plan{Waiting: "condemned ordinal 3 is terminating"}},
		{"OrderedReady deletes the highest condemned pod while it is available", "0U 1U 2u 3U", ordered(2),
			Plan{Delete: condemn(3), Waiting: "deleting condemned ordinal 3"}},
		{"OrderedReady does not delete an unavailable pod above the lowest unavailable one", "0U 1U 2u 3u", ordered(2),
			Plan{Waiting: "ordinal 2 is not available"}},
		{"OrderedReady deletes a failed condemned pod: it never becomes available", "0U 1U 2u 3Uf", ordered(2),
			Plan{Delete: condemn(3), Waiting: "deleting condemned ordinal 3"}},
		{"OrderedReady deletes the lowest unavailable condemned pod", "0U 1U 2u", ordered(2),
			Plan{Delete: condemn(2), Waiting: "deleting condemned ordinal 2"}},
		{"OrderedReady does not scale down while a desired pod is unavailable", "0u 1U 2U", ordered(2),
			Plan{Waiting: "ordinal 0 is not available"}},
		{"OrderedReady recreates a failed pod and stops", "0U 1Of 2O", ordered(3),
			Plan{Delete: []Deletion{{Ordinal: 1, Reason: DeleteFailed}}, Waiting: "recreating failed ordinal 1"}},
		{"OrderedReady updates from the highest ordinal", "0O 1O 2O", ordered(3),
			Plan{Update: []int{2}}},
		{"OrderedReady recreates the deleted pod at the update revision", "0O 1O", ordered(3),
			Plan{Create: create(2), Waiting: "created ordinal 2"}},
		{"OrderedReady waits for the updated pod", "0O 1O 2u", ordered(3),
			Plan{Waiting: "ordinal 2 is not available"}},
		{"OrderedReady goes on down", "0O 1O 2U", ordered(3),
			Plan{Update: []int{1}}},
		{"ordinals.start", "0U", with(parallel(2), func(p *Params) { p.Start = 3 }),
			Plan{Create: create(3, 4), Delete: condemn(0)}},

		// Parallel.
		{"Parallel creates everything at once", "", parallel(3), Plan{Create: create(0, 1, 2)}},
		{"Parallel deletes every condemned pod at once", "0U 1U 2U 3U", parallel(2), Plan{Delete: condemn(3, 2)}},
		{"Parallel skips terminating condemned pods", "0U 1U 2Ut 3U", parallel(2), Plan{Delete: condemn(3)}},
		{"Parallel recreates a failed pod and goes on", "0Uf 2U", parallel(3),
			Plan{Create: create(1), Delete: []Deletion{{Ordinal: 0, Reason: DeleteFailed}}}},
		{"scaleStrategy.maxUnavailable bounds creations", "",
			with(parallel(5), func(p *Params) { p.ScaleMaxUnavailable = 2 }),
			Plan{Create: create(0, 1), ScaleUpLimited: 3}},
		{"scaleStrategy.maxUnavailable counts unavailable pods", "0U 1u",
			with(parallel(5), func(p *Params) { p.ScaleMaxUnavailable = 2 }),
			Plan{Create: create(2), ScaleUpLimited: 2}},
		{"an update waits while pods are missing", "0O 1O",
			with(parallel(4), func(p *Params) { p.ScaleMaxUnavailable = 1; p.MaxUnavailable = 2 }),
			Plan{Create: create(2), ScaleUpLimited: 1}},

		// Update strategy details.
		{"an unavailable old pod costs no availability", "0O 1O 2o 3O 4O", parallel(5),
			Plan{Update: []int{2}}},
		{"an unavailable old pod below the partition stays", "0o 1O 2O",
			with(parallel(3), func(p *Params) { p.Partition = 1 }),
			Plan{}},
		{"partition keeps new pods at the current revision", "2O",
			with(parallel(4), func(p *Params) { p.Partition = 2 }),
			Plan{Create: []Creation{{Ordinal: 0, AtCurrent: true}, {Ordinal: 1, AtCurrent: true}, {Ordinal: 3}}}},
		{"partition counts positions, not ordinals", "",
			with(parallel(3), func(p *Params) { p.Partition = 2; p.Reserved = reserve(1) }),
			Plan{Create: []Creation{{Ordinal: 0, AtCurrent: true}, {Ordinal: 2, AtCurrent: true}, {Ordinal: 3}}}},
		{"OnDelete creates at the update revision and updates nothing", "0O 1O",
			with(parallel(3), func(p *Params) { p.RollingUpdate = false; p.Partition = 3 }),
			Plan{Create: create(2)}},
		{"paused still scales", "0O 1O",
			with(parallel(3), func(p *Params) { p.Paused = true }),
			Plan{Create: create(2)}},
		{"unordered updates by priority", "0O:1 1O:5 2O:3 3O:5 4O",
			with(parallel(5), func(p *Params) { p.Unordered = true; p.MaxUnavailable = 2 }),
			Plan{Update: []int{3, 1}}},
		{"unordered partition keeps the lowest-priority pods", "0O:1 1O:5 2O:3 3O:5 4O",
			with(parallel(5), func(p *Params) { p.Unordered = true; p.MaxUnavailable = 5; p.Partition = 3 }),
			Plan{Update: []int{3, 1}}},
		{"unordered partition counts updated pods", "0O:1 1U:5 2O:3 3U:5 4O",
			with(parallel(5), func(p *Params) { p.Unordered = true; p.MaxUnavailable = 5; p.Partition = 2 }),
			Plan{Update: []int{2}}},

		// apps.kruise.io/specified-delete.
		{"a specified pod is deleted, whatever the partition", "0Od 1O 2O",
			with(parallel(3), func(p *Params) { p.Partition = 3 }),
			Plan{Delete: specified(0)}},
		{"specified deletions stay within maxUnavailable, highest first", "0Od 1Od 2Od", parallel(3),
			Plan{Delete: specified(2)}},
		{"an unavailable specified pod costs nothing", "0Od 1od 2O", parallel(3),
			Plan{Delete: specified(1)}},
		{"a specified deletion takes the update's budget", "0Od 1O 2O",
			with(parallel(3), func(p *Params) { p.MaxUnavailable = 2 }),
			Plan{Delete: specified(0), Update: []int{2}}},
		{"a specified pod a hook holds goes before a higher one", "0Od 1Odp 2Od", parallel(3),
			Plan{Delete: specified(1)}},
		{"a specified old pod is deleted, not updated", "0O 1O 2Od", parallel(3),
			Plan{Delete: specified(2)}},
		{"OnDelete and paused sets honour specified deletions", "0Ud 1U",
			with(parallel(2), func(p *Params) { p.RollingUpdate = false; p.Paused = true }),
			Plan{Delete: specified(0)}},
		{"OrderedReady deletes a specified pod once all are available", "0Ud 1U", ordered(2),
			Plan{Delete: specified(0)}},

		// volumeClaimUpdateStrategy OnPodRollingUpdate.
		{"an updated pod with stale claims is rolled", "0U 1Uc 2Uc", parallel(3),
			Plan{Update: []int{2}}},
		{"a resizing pod is unavailable to the rollout and picked again", "0U 1Uc 2Ur", parallel(3),
			Plan{Update: []int{2}}},
		{"stale claims below the partition stay", "0Uc 1Uc",
			with(parallel(2), func(p *Params) { p.Partition = 1 }),
			Plan{Update: []int{1}}},
		{"unordered creation fills the partition first", "1U 2O",
			with(parallel(4), func(p *Params) { p.Unordered = true; p.Partition = 2 }),
			Plan{Create: []Creation{{Ordinal: 0, AtCurrent: true}, {Ordinal: 3}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Compute(states(tc.pods), tc.p)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Plan{}, "Desired")); diff != "" {
				t.Fatalf("plan differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveParams(t *testing.T) {
	pct := func(s string) *intstrutil.IntOrString { v := intstrutil.FromString(s); return &v }
	num := func(i int) *intstrutil.IntOrString { v := intstrutil.FromInt32(int32(i)); return &v }
	cases := []struct {
		name             string
		in               Params
		unavail, sunavai *intstrutil.IntOrString
		wantUnavail      int
		wantScale        int
		wantPartition    int
	}{
		{"defaults", parallel(5), nil, nil, 1, 0, 0},
		{"percent rounds down", parallel(5), pct("50%"), pct("50%"), 2, 2, 0},
		{"never below one", parallel(5), pct("10%"), pct("10%"), 1, 1, 0},
		{"scale limit only with Parallel", ordered(5), num(1), num(3), 1, 0, 0},
		{"partition clamped to replicas", with(parallel(3), func(p *Params) { p.Partition = 10 }), num(3), nil, 3, 0, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResolveParams(tc.in, tc.unavail, tc.sunavai)
			if err != nil {
				t.Fatal(err)
			}
			if got.MaxUnavailable != tc.wantUnavail || got.ScaleMaxUnavailable != tc.wantScale || got.Partition != tc.wantPartition {
				t.Fatalf("got maxUnavailable %d scale %d partition %d, want %d %d %d", got.MaxUnavailable,
					got.ScaleMaxUnavailable, got.Partition, tc.wantUnavail, tc.wantScale, tc.wantPartition)
			}
		})
	}
	if _, err := ResolveParams(parallel(3), pct("x%"), nil); err == nil {
		t.Error("a malformed percentage resolved")
	}
}
