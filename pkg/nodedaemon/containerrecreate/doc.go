// Package containerrecreate is the node daemon's side of ContainerRecreateRequests
// (CRRs): it stops the named containers of a pod on its node so that the kubelet starts
// them again, and reports how each went.
//
// Decide (decide.go) is the state machine, a pure function of the request, its pod,
// what the runtime says of the containers and the time; it returns one step at a time.
// Every step is derived from the stored request and pod, never from memory, so a daemon
// that restarts in the middle of a request carries on where the stored state says:
//
//	Pending/""  wait for crr.apps.kruise.io/unready-acquired + unreadyGracePeriodSeconds
//	            (when the strategy sets it; the controller makes the pod unready first),
//	            record spec.containers[*].statusContext {containerID, restartCount} from
//	            the pod, then set Recreating with every container Pending;
//	Recreating  run preStop and stop the containers due (all at once, or one at a time
//	            with orderedRecreate, the next once the previous is Succeeded), mark them
//	            isKilled; a container is Succeeded when the pod shows another containerID
//	            (or a higher restartCount) than its statusContext and it has been running
//	            and ready for minStartedSeconds; a stop that fails marks it Failed with the
//	            runtime's error; failurePolicy Fail ends the request at the first failure;
//	            with forceRecreate, a container that restarted on its own before this
//	            request stopped it is recorded again (its new containerID) and stopped;
//	            without it, that restart is taken for the recreation;
//	done        every container has a final state; once that is written,
//	            kruise-controller completes the request (Completed, completionTime,
//	            a message naming the containers that failed).
//
// A request that can no longer run (recreaterequest.Blocker: pod gone, replaced,
// deleting or finished, deadline passed) is left alone from then on: kruise-controller
// is the one that fails it, so the rule has one owner and one writer.
//
// The daemon writes only its own fields of a request (recreaterequest: writers.go,
// enforced by the API server's KruiseNodeRestriction): the statusContexts, the
// container states and phase Recreating. Each write is a merge patch that carries the
// resourceVersion the step was decided on; a refused write (the request changed since)
// is logged and the step decided again on the fresh request.
//
// A container is never stopped twice for one request: it is stopped only while its
// state is Pending, its pod status still shows the statusContext's container, and the
// runtime still runs that container (a daemon that died between the stop and its status
// write finds the container exited and only marks it).
//
// Executor (executor.go) carries out preStop hooks (exec through CRI ExecSync, httpGet,
// tcpSocket) and StopContainer; Controller (controller.go) watches the node's active
// requests and pods and writes the results.
package containerrecreate
