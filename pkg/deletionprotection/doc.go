// Package deletionprotection is the one rule of the policy.kruise.io/delete-protection
// label, shared by everything that enforces or audits it: kruise-apiserver's in-process
// admission plugin for Kruise kinds, its webhook for Namespaces, CRDs, apps/v1
// workloads, Services and Ingresses, and kruise-controller's count of deletions that got past them.
//
//   - Always refuses the delete.
//   - Cascading refuses it while the object has active children (pods in a Namespace,
//     replicas of a workload, objects of a CRD).
//
// The rule is pure: callers count the children their own way (a lister, a request's
// old object, a list with limit=1) and hand them in.
package deletionprotection
