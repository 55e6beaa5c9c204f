package recreaterequest

// Who writes what of a ContainerRecreateRequest. Every field has one writer:
//
//	kruise-controller  status.phase "" → Pending; any unfinished phase → Failed (a
//	                   Blocker, the pickup timeout); Recreating → Completed once every
//	                   container state is final; status.message; status.completionTime;
//	                   the unready-acquired annotation; the active label
//	node daemon        status.phase ""/Pending → Recreating (it took the request);
//	                   status.containerRecreateStates; spec.containers[*].statusContext
//
// The phase is the one field both move, each along its own transitions (PhaseWriter).
// A transition is decided on the phase the writer read, and the other writer may have
// moved it meanwhile (the controller fails a request for a blocker while the daemon
// takes it): every write is a JSON merge patch of the writer's own fields that carries
// the resourceVersion its decision was made on, so a decision made on a stale object
// is refused (409 Conflict) and made again from the fresh one by the caller's work
// queue. Only the release (dropping the active label of a finished request) carries no
// precondition: a finished phase never changes again.
//
// The resourceVersion, not a JSON patch `test` of the phase alone, because decisions
// rest on more than the phase (the daemon's on its own container states and the
// statusContexts, the controller's completion on those states), and a `test` of the
// states would compare their free-text messages byte for byte with the server's
// encoding of them.

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// Writer is who may make a phase transition.
type Writer int

const (
	// Nobody may: the transition is not part of a request's life (a finished phase
	// never changes; Pending never goes back to "").
	Nobody Writer = iota
	// Controller is kruise-controller.
	Controller
	// Daemon is the node daemon of the request's node.
	Daemon
)

func (w Writer) String() string {
	return [...]string{"nobody", "kruise-controller", "the node daemon"}[w]
}

// PhaseWriter says who may move a request from phase from to phase to (phases as
// strings, so the API server's admission can ask with its internal types). from == to
// is no move, and Nobody's: a write that keeps the phase needs no phase rule.
func PhaseWriter(from, to string) Writer {
	const (
		none       = ""
		pending    = string(v1alpha1.ContainerRecreateRequestPending)
		recreating = string(v1alpha1.ContainerRecreateRequestRecreating)
		completed  = string(v1alpha1.ContainerRecreateRequestCompleted)
		failed     = string(v1alpha1.ContainerRecreateRequestFailed)
	)
	switch {
	case from == to:
		return Nobody
	case Finished(v1alpha1.ContainerRecreateRequestPhase(from)):
		return Nobody
	case from == none && to == pending:
		return Controller
	case (from == none || from == pending) && to == recreating:
		return Daemon
	case from == recreating && to == completed:
		return Controller
	case to == failed:
		return Controller
	}
	return Nobody
}

// Field managers of the two writers (managedFields).
const (
	ControllerFieldManager = "containerrecreaterequest-controller"
	DaemonFieldManager     = "kruise-node-daemon"
)

// patch is a JSON merge patch of a request: the resourceVersion precondition (empty:
// none) and the writer's own fields.
type patch struct {
	Metadata *patchMeta `json:"metadata,omitempty"`
	Spec     any        `json:"spec,omitempty"`
	Status   any        `json:"status,omitempty"`
}

type patchMeta struct {
	ResourceVersion string             `json:"resourceVersion,omitempty"`
	Labels          map[string]*string `json:"labels,omitempty"`
	Annotations     map[string]string  `json:"annotations,omitempty"`
}

func encode(p patch) []byte {
	out, err := json.Marshal(p)
	if err != nil {
		// Only our own structs of strings, times and API types are encoded here.
		panic(fmt.Sprintf("encoding a ContainerRecreateRequest patch: %v", err))
	}
	return out
}

// ControllerStatusPatch is kruise-controller's status write (status subresource): the
// phase, its message and, for a final phase, completionTime, decided on read.
func ControllerStatusPatch(read *v1alpha1.ContainerRecreateRequest, phase v1alpha1.ContainerRecreateRequestPhase,
	message string, completion *metav1.Time) []byte {
	type status struct {
		Phase          v1alpha1.ContainerRecreateRequestPhase `json:"phase"`
		Message        *string                                `json:"message"` // "" clears it
		CompletionTime *metav1.Time                           `json:"completionTime,omitempty"`
	}
	return encode(patch{
		Metadata: &patchMeta{ResourceVersion: read.ResourceVersion},
		Status:   status{Phase: phase, Message: &message, CompletionTime: completion},
	})
}

// DaemonStatusPatch is the node daemon's status write (status subresource): every
// container's state and, when it takes the request, phase Recreating (phase "" leaves
// the phase alone), decided on read.
func DaemonStatusPatch(read *v1alpha1.ContainerRecreateRequest, phase v1alpha1.ContainerRecreateRequestPhase,
	states []v1alpha1.ContainerRecreateRequestContainerRecreateState) []byte {
	type status struct {
		Phase  v1alpha1.ContainerRecreateRequestPhase                    `json:"phase,omitempty"`
		States []v1alpha1.ContainerRecreateRequestContainerRecreateState `json:"containerRecreateStates"`
	}
	if states == nil {
		states = []v1alpha1.ContainerRecreateRequestContainerRecreateState{}
	}
	return encode(patch{
		Metadata: &patchMeta{ResourceVersion: read.ResourceVersion},
		Status:   status{Phase: phase, States: states},
	})
}

// StatusContextPatch is the node daemon's spec write (main endpoint): the status
// contexts of the named containers, decided on read. A merge patch replaces a list
// whole, so it carries read's containers with the contexts set; the resourceVersion
// makes sure they are the stored ones.
func StatusContextPatch(read *v1alpha1.ContainerRecreateRequest,
	contexts map[string]v1alpha1.ContainerRecreateRequestContainerContext) []byte {
	containers := make([]v1alpha1.ContainerRecreateRequestContainer, len(read.Spec.Containers))
	for i, c := range read.Spec.Containers {
		containers[i] = *c.DeepCopy()
		if sc, ok := contexts[c.Name]; ok {
			containers[i].StatusContext = &sc
		}
	}
	type spec struct {
		Containers []v1alpha1.ContainerRecreateRequestContainer `json:"containers"`
	}
	return encode(patch{
		Metadata: &patchMeta{ResourceVersion: read.ResourceVersion},
		Spec:     spec{Containers: containers},
	})
}

// UnreadyAcquiredPatch is kruise-controller's record of when it made the pod unready
// (main endpoint), decided on read: a stale read must not record a later time, or the
// unready grace would start over.
func UnreadyAcquiredPatch(read *v1alpha1.ContainerRecreateRequest, at string) []byte {
	return encode(patch{Metadata: &patchMeta{
		ResourceVersion: read.ResourceVersion,
		Annotations:     map[string]string{v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey: at},
	}})
}

// ReleasePatch is kruise-controller's removal of the active label from a finished
// request (main endpoint). No precondition: a finished phase never changes again.
func ReleasePatch() []byte {
	return encode(patch{Metadata: &patchMeta{Labels: map[string]*string{v1alpha1.ContainerRecreateRequestActiveKey: nil}}})
}
