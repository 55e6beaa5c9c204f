// Package persistentpodstate holds the rules of PersistentPodState
// (persistentpodstates.apps.kruise.io), shared by kruise-controller (which records where
// each StatefulSet pod ran, and generates PersistentPodStates from workload annotations)
// and kruise-apiserver's pod webhook (which turns a record into node affinity when a
// pod of the same name is created again). Pure functions over v1beta1 types.
package persistentpodstate
