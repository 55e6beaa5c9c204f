// Package podprobe runs the probes of its node's NodePodProbe (PodProbeMarker's node
// side) and reports their results in the NodePodProbe's status.
//
// One worker per pod and probe runs the probe every periodSeconds after
// initialDelaySeconds (counted from the container's start): exec through CRI ExecSync
// in the container, httpGet and tcpSocket from the node to the pod's IP, each within
// timeoutSeconds. As the kubelet's prober, a result becomes the probe's state only
// after successThreshold successes or failureThreshold failures in a row.
//
// The status is written when a state changes (or a pod leaves the spec), never per
// probe period: the state carries the message and times of its transition, and a
// result that leaves the state as it was writes nothing. kruise-controller reads the
// states and marks the pods. At start the states already in the status are taken as
// the current ones, so a restarted daemon does not rewrite them.
package podprobe
