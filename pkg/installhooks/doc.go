// Package installhooks is what the Helm chart's hook Jobs run (`kruise-controller
// install-hook ...`), so that installing and uninstalling Kruise Native never breaks
// the cluster it goes into:
//
//   - register-apiservices (post-install, post-upgrade): the four APIServices are
//     created only once kruise-apiserver has a Ready endpoint, with the serving CA as
//     caBundle, and kept only if they become Available. An APIService whose server
//     cannot answer makes discovery fail for every client, and with it namespace
//     deletion and garbage collection; so one that is not Available in time is removed
//     again and the hook fails, leaving the cluster as it was before the install.
//   - pre-delete: refuses while objects exist whose pods or copies would outlive the
//     API that manages them (CloneSets, Advanced StatefulSets and DaemonSets,
//     BroadcastJobs, AdvancedCronJobs, UnitedDeployments, ResourceDistributions), then
//     removes the APIServices before Helm deletes kruise-apiserver.
package installhooks
