package podwebhook

import (
	"context"
	"fmt"
	"sort"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/klog/v2"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/workloadspread"
)

// spreadOp is what a request does to a WorkloadSpread's status.
type spreadOp int

const (
	spreadReserve spreadOp = iota // a new pod takes a slot
	spreadRelease                 // a placed pod is being deleted
)

type spreadRequest struct {
	op     spreadOp
	pod    string
	subset string // release: the pod's subset
	// version is the pod's version for a versioned spread ("" otherwise); init is
	// that version's statuses should the spread have none yet (its first pod).
	version string
	init    appsv1beta1.WorkloadSpreadSubsetStatusList
}

type spreadResult struct {
	decision workloadspread.Decision
	subset   string
}

type spreadBatcher = statusBatcher[*appsv1beta1.WorkloadSpread, spreadRequest, spreadResult]

// decideSpread decides a batch of reservations and releases in order on ws
// (pkg/workloadspread); ws is written when a slot was taken or freed.
func decideSpread(ws *appsv1beta1.WorkloadSpread, batch []spreadRequest, now metav1.Time) ([]spreadResult, bool) {
	out := make([]spreadResult, len(batch))
	changed := false
	for i, r := range batch {
		switch r.op {
		case spreadReserve:
			d, s := workloadspread.ReserveVersion(ws, r.version, r.init, r.pod, now)
			out[i] = spreadResult{decision: d, subset: s}
			changed = changed || d == workloadspread.Reserved
		case spreadRelease:
			changed = workloadspread.ReleaseVersion(ws, r.version, r.subset, r.pod, now) || changed
		}
	}
	return out, changed
}

// WorkloadSpread handlers: a new pod of a spread's target is placed in the first
// subset with room, its slot reserved in the spread's status before the answer; a
// placed pod being deleted frees its slot at once (deletingPods).
func workloadSpreadHandlers(store SpreadStore, now func() time.Time, readyWait time.Duration) []Handler {
	b := &spreadBatcher{kind: "workloadspread", get: store.Get, update: store.UpdateStatus, now: now, decide: decideSpread}
	// Both handlers act only in a namespace with a spread.
	spreadClauses := cachedCallClauses("WorkloadSpreads", store.List, WorkloadSpreadCallClause)
	return []Handler{
		{Name: "workloadspread", Rules: podCreates, Synced: store.Synced,
			Mutate: func(ctx context.Context, req *admissionv1.AdmissionRequest, pod *corev1.Pod) error {
				return placeInSpread(ctx, store, b, req, pod, readyWait)
			},
			// A pod is placed only by a spread of its own namespace.
			Applies: func(req *admissionv1.AdmissionRequest) (bool, error) {
				spreads, err := store.List(req.Namespace)
				if err != nil {
					return false, fmt.Errorf("listing WorkloadSpreads: %w", err)
				}
				return len(spreads) > 0, nil
			},
			CallClauses: spreadClauses},
		{Name: "workloadspread-release", Synced: store.Synced,
			Rules:       []Rule{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Delete}, Resource: Pods}},
			CallClauses: spreadClauses,
			Validate: func(ctx context.Context, req *admissionv1.AdmissionRequest) error {
				return releaseFromSpread(ctx, store, b, req)
			}},
	}
}

// spreadReadyWait is how long a pod waits for a spread created or changed a moment ago
// to be counted by its controller (a spread applied with its workload in one kubectl
// apply): well inside the webhook's timeout, and paid only in that window.
const spreadReadyWait = time.Second

func placeInSpread(ctx context.Context, store SpreadStore, b *spreadBatcher, req *admissionv1.AdmissionRequest,
	pod *corev1.Pod, readyWait time.Duration) error {
	if _, placed := workloadspread.PlacementOf(pod); placed {
		return nil
	}
	ws, err := spreadOf(ctx, store, pod)
	if err != nil || ws == nil {
		return err
	}
	if !workloadspread.Ready(ws) && readyWait > 0 {
		ws = awaitCounted(ctx, store, ws, readyWait)
	}
	// The reservation is by pod name; a ReplicaSet's pods have only a generateName, so
	// the name is chosen here, the way kube-apiserver would.
	if pod.Name == "" && pod.GenerateName != "" {
		pod.Name = names.SimpleNameGenerator.GenerateName(pod.GenerateName)
	}
	reserve, err := reserveRequest(ctx, store, ws, pod)
	if err != nil {
		return err
	}
	var res spreadResult
	if req.DryRun != nil && *req.DryRun {
		out, _ := decideSpread(b.peek(ws), []spreadRequest{reserve}, metav1.NewTime(b.now()))
		res = out[0]
	} else if res, err = b.submit(ctx, ws, reserve); err != nil {
		return err
	}
	logger := klog.FromContext(ctx).WithValues("workloadspread", klog.KObj(ws), "pod", klog.KObj(pod))
	if res.decision != workloadspread.Reserved {
		logger.V(2).Info("Pod not placed", "reason", map[workloadspread.Decision]string{
			workloadspread.NotReady: "status not counted for this generation yet", workloadspread.Full: "no subset has room"}[res.decision])
		return nil
	}
	for i := range ws.Spec.Subsets {
		if s := &ws.Spec.Subsets[i]; s.Name == res.subset {
			placed, err := workloadspread.Inject(pod, ws.Name, s)
			if err != nil {
				return err
			}
			*pod = *placed
			logger.V(2).Info("Placed pod", "subset", s.Name)
			return nil
		}
	}
	return fmt.Errorf("WorkloadSpread %s/%s reserved subset %q that its spec does not have", ws.Namespace, ws.Name, res.subset)
}

// awaitCounted polls the cache for up to wait until ws's status describes its spec;
// it returns the newest copy seen (still not counted on timeout: the pod goes
// unplaced, as OpenKruise's does).
func awaitCounted(ctx context.Context, store SpreadStore, ws *appsv1beta1.WorkloadSpread, wait time.Duration) *appsv1beta1.WorkloadSpread {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ws
		case <-deadline.C:
			return ws
		case <-tick.C:
			spreads, err := store.List(ws.Namespace)
			if err != nil {
				return ws
			}
			for _, cur := range spreads {
				if cur.UID == ws.UID && workloadspread.Ready(cur) {
					return cur
				}
			}
		}
	}
}

func releaseFromSpread(ctx context.Context, store SpreadStore, b *spreadBatcher, req *admissionv1.AdmissionRequest) error {
	if req.DryRun != nil && *req.DryRun {
		return nil
	}
	// The namespace's spreads first, from the cache: without any, the deleted pod needs
	// no decoding (every pod delete in the cluster comes through here).
	spreads, err := store.List(req.Namespace)
	if err != nil {
		return fmt.Errorf("listing WorkloadSpreads: %w", err)
	}
	if len(spreads) == 0 {
		return nil
	}
	pod, err := decodePod(req.OldObject.Raw)
	if err != nil {
		return err
	}
	p, placed := workloadspread.PlacementOf(pod)
	if !placed || pod.DeletionTimestamp != nil {
		return nil // not placed, or already going (a second delete frees nothing)
	}
	for _, ws := range spreads {
		if ws.Name == p.Name && ws.DeletionTimestamp == nil {
			_, err := b.submit(ctx, ws, spreadRequest{op: spreadRelease, pod: pod.Name, subset: p.Subset,
				version: workloadspread.PodVersion(ws, pod)})
			return err
		}
	}
	return nil
}

// spreadOf is the WorkloadSpread whose target controls pod (a Deployment through the
// pod's ReplicaSet), the first by name if several do; nil for none.
func spreadOf(ctx context.Context, store SpreadStore, pod *corev1.Pod) (*appsv1beta1.WorkloadSpread, error) {
	owner := metav1.GetControllerOf(pod)
	if owner == nil {
		return nil, nil
	}
	spreads, err := store.List(pod.Namespace)
	if err != nil {
		return nil, fmt.Errorf("listing WorkloadSpreads: %w", err)
	}
	sort.Slice(spreads, func(i, j int) bool { return spreads[i].Name < spreads[j].Name })
	var rsOwner *metav1.OwnerReference
	rsRead := false
	for _, ws := range spreads {
		ref := ws.Spec.TargetReference
		if ws.DeletionTimestamp != nil || ref == nil {
			continue
		}
		// targetFilter: a pod its selector does not match is not the spread's (another
		// spread of the same workload may take it).
		if ok, err := workloadspread.Selects(ws, pod.Labels); err != nil || !ok {
			continue
		}
		gv, err := schema.ParseGroupVersion(ref.APIVersion)
		if err != nil {
			continue
		}
		if sameWorkload(owner, gv.Group, ref.Kind, ref.Name) {
			return ws, nil
		}
		if gv.Group != "apps" || ref.Kind != "Deployment" || !sameWorkload(owner, "apps", "ReplicaSet", "") {
			continue
		}
		if !rsRead {
			rsRead = true
			rsOwner, err = store.ReplicaSetController(ctx, pod.Namespace, owner.Name)
			if apierrors.IsNotFound(err) {
				return nil, nil
			}
			if err != nil {
				return nil, fmt.Errorf("reading ReplicaSet %s: %w", owner.Name, err)
			}
		}
		if rsOwner != nil && sameWorkload(rsOwner, "apps", "Deployment", ref.Name) {
			return ws, nil
		}
	}
	return nil, nil
}

// reserveRequest is the reservation of pod's slot. A pod of a version the spread has
// not counted yet (the first pod of a Deployment's new ReplicaSet) brings that
// version's empty statuses, their percents resolved against the target's replicas.
func reserveRequest(ctx context.Context, store SpreadStore, ws *appsv1beta1.WorkloadSpread, pod *corev1.Pod) (spreadRequest, error) {
	r := spreadRequest{op: spreadReserve, pod: pod.Name, version: workloadspread.PodVersion(ws, pod)}
	if r.version == "" {
		return r, nil
	}
	if _, counted := ws.Status.VersionedSubsetStatuses[r.version]; counted {
		return r, nil
	}
	var replicas int32
	if workloadspread.NeedsReplicas(ws) {
		var err error
		if replicas, err = store.TargetReplicas(ctx, ws); err != nil {
			return r, fmt.Errorf("reading the replicas of WorkloadSpread %s/%s's target: %w", ws.Namespace, ws.Name, err)
		}
	}
	init, err := workloadspread.NewVersion(ws, replicas)
	if err != nil {
		return r, err
	}
	r.init = init
	return r, nil
}
