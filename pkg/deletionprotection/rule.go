package deletionprotection

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// Children are an object's active children as the Cascading rule sees them.
type Children struct {
	// Count is how many there are; a lower bound will do (a list with limit=1 says
	// 0 or 1), as the rule only asks whether there are any.
	Count int64
	// What says what they are, completing "forbids deleting it while ...".
	What string
	// Remedy says how to be rid of them, completing "...; ".
	Remedy string
}

// ChildrenFunc counts an object's children. The rule calls it for Cascading only, so
// an unprotected or Always object costs no lookup.
type ChildrenFunc func() (Children, error)

// Replicas are the pods a workload asks for or runs, read from field (spec.replicas,
// or a DaemonSet's status.desiredNumberScheduled).
func Replicas(field string, n int64) Children {
	return Children{Count: n, What: fmt.Sprintf("%s is %d", field, n), Remedy: "bring it to 0 first"}
}

// Pods are the active pods of a Namespace; atLeast says n is a lower bound (a
// limited list).
func Pods(n int64, atLeast bool) Children {
	bound := ""
	if atLeast {
		bound = "at least "
	}
	return Children{Count: n, What: fmt.Sprintf("it has %s%d active pod(s)", bound, n), Remedy: "delete them first"}
}

// Objects are the objects of a CustomResourceDefinition's resource (plural.group);
// n is a lower bound.
func Objects(resource string, n int64) Children {
	return Children{Count: n, What: fmt.Sprintf("%s objects exist", resource), Remedy: "delete them first"}
}

// refusalPrefix begins every refusal as OpenKruise's does ("forbidden by
// ResourcesProtectionDeletion for policy.kruise.io/delete-protection=<value>"): scripts
// written for OpenKruise match it. Our explanation follows it.
const refusalPrefix = "forbidden by ResourcesProtectionDeletion for "

// Refusal is why deleting an object with these labels must be refused, "" when the
// label allows it. An error means the children could not be counted: the caller
// cannot decide.
func Refusal(labels map[string]string, children ChildrenFunc) (string, error) {
	switch mode := labels[pub.DeletionProtectionKey]; mode {
	case pub.DeletionProtectionTypeAlways:
		return fmt.Sprintf("%s%s=%s: the label forbids deleting it; remove the label first",
			refusalPrefix, pub.DeletionProtectionKey, mode), nil
	case pub.DeletionProtectionTypeCascading:
		c, err := children()
		if err != nil {
			return "", err
		}
		if c.Count > 0 {
			return fmt.Sprintf("%s%s=%s: the label forbids deleting it while %s; %s",
				refusalPrefix, pub.DeletionProtectionKey, mode, c.What, c.Remedy), nil
		}
	}
	return "", nil
}

// Protected reports whether labels carry a protection the rule enforces; objects
// without one are never looked at.
func Protected(labels map[string]string) bool {
	switch labels[pub.DeletionProtectionKey] {
	case pub.DeletionProtectionTypeAlways, pub.DeletionProtectionTypeCascading:
		return true
	}
	return false
}

// ActivePodAt reports whether pod counted as a Namespace's active child when the
// Namespace's deletion began at since (nil: it begins now): not finished, and not
// already being deleted before then (a pod the namespace controller is removing was
// still a child when the deletion began, one deleted earlier was not).
func ActivePodAt(pod *corev1.Pod, since *metav1.Time) bool {
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return false
	}
	return pod.DeletionTimestamp == nil || (since != nil && !pod.DeletionTimestamp.Before(since))
}

// CountActivePods counts the pods among pods active at since (see ActivePodAt).
func CountActivePods(pods []*corev1.Pod, since *metav1.Time) int64 {
	var n int64
	for _, p := range pods {
		if ActivePodAt(p, since) {
			n++
		}
	}
	return n
}
