// Package nodeidentity recognises a node daemon among the users of kruise-apiserver.
// Every check that confines a daemon to its own node (the KruiseNodeRestriction
// admission plugin for writes, the nodeimages/pullsecrets subresource for reads) asks
// here, so they cannot disagree about who is a daemon or which node it acts for.
package nodeidentity

import (
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
)

// DaemonServiceAccount is the service account node daemons run as (in any namespace).
const DaemonServiceAccount = "kruise-node-daemon"

// NodeOf returns the node a node daemon's credentials are bound to. isDaemon is false
// for every other user. A daemon's token must be bound to its Node object
// (`kubectl create token --bound-object-kind=Node`, or a projected token in a pod
// scheduled there), which puts the node name in the user's extra; a daemon whose
// token is not bound gets node "" and must be refused by the caller.
func NodeOf(u user.Info) (node string, isDaemon bool) {
	if u == nil {
		return "", false
	}
	_, name, err := serviceaccount.SplitUsername(u.GetName())
	if err != nil || name != DaemonServiceAccount {
		return "", false
	}
	if v := u.GetExtra()[serviceaccount.NodeNameKey]; len(v) == 1 {
		return v[0], true
	}
	return "", true
}
