// Package controllerref reads controller references the same way for every
// controller: whether an object is controlled by a kind (matched by group and kind,
// any version, as OpenKruise writes pods' references in v1alpha1 and a StatefulSet's
// in v1beta1), and an event handler that queues an object's controlling owner, for
// controllers of workloads that own other workloads rather than pods (UnitedDeployment
// owning CloneSets, AdvancedCronJob owning Jobs, ImageListPullJob owning
// ImagePullJobs).
package controllerref
