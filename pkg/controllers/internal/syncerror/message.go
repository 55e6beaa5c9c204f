// Package syncerror turns a failed sync's error into the message of a status condition.
//
// A condition's message must stay the same while the same failure repeats: a message
// that changes on every retry (because it names the pod the controller just made up)
// makes every failed sync write status, and every status write wakes the controller
// again, so a rejected create turns into a retry storm that the work queue's backoff
// never gets to slow down.
package syncerror

import (
	"errors"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// ConditionMessage returns err's text without the names of the objects the API server
// refused. Those names are generated per attempt (CloneSet pods, PVCs, events), while
// the reason for the refusal (a quota, an invalid label, a forbidden namespace) is what
// an operator needs and is the same on every retry.
func ConditionMessage(err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	for _, name := range refusedNames(err) {
		// kube writes `<resource> "<name>" is ...`; drop the quoted name and its space.
		msg = strings.ReplaceAll(msg, " "+strconv.Quote(name), "")
		msg = strings.ReplaceAll(msg, strconv.Quote(name), "")
	}
	return msg
}

// refusedNames collects the object names of every API status error in err's tree
// (errors.Join and %w chains alike).
func refusedNames(err error) []string {
	var names []string
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		var status apierrors.APIStatus
		if errors.As(e, &status) {
			if d := status.Status().Details; d != nil && d.Name != "" {
				names = append(names, d.Name)
			}
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return names
}
