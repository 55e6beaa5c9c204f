// Package crdmove moves a cluster whose Kruise kinds are served from CustomResourceDefinitions
// (OpenKruise) to kruise-apiserver, without a pod being deleted or restarted. It is
// `kubectl kruise migrate-from-crds`.
//
// Why the order matters: every pod is owned, by UID, by an object in CRD storage. The
// garbage collector deletes a pod when a live GET of its owner answers 404 or returns
// another UID, and without any lookup when it has seen the owner's DELETE event (its
// absent-owner cache). So the objects go to kruise-apiserver with their UIDs
// (kruise-apiserver's import path, pkg/apiserver/importmeta), the group/versions switch
// from the CRDs to kruise-apiserver in one write per APIService, and the CRDs' objects are
// deleted only after no client can still be watching them.
//
// The steps, each safe to run again after an interruption:
//
//  1. freeze: a ValidatingAdmissionPolicy denies writes to the CRD-served Kruise kinds to
//     everyone but the migrating user, so nothing written after the export is lost;
//  2. import: every object of every Kruise CRD is created in kruise-apiserver, reached
//     directly, keeping name, UID, creationTimestamp, generation, labels, annotations,
//     finalizers, ownerReferences, spec and then status; an object already imported with
//     the same UID is brought up to date; one with another UID stops the migration;
//  3. release: the CRD copies' finalizers (kept in kruise-apiserver) are moved to an
//     annotation, so that deleting the CRDs later cannot hang on them;
//  4. switch: each Kruise APIService — a "local" one kube-aggregator made for the CRDs —
//     is updated to point at kruise-apiserver and loses its automanaged label (so the
//     aggregator's autoregistration leaves it alone). The aggregator proxies from that
//     write on: the APIService's Available condition, still True from its local days,
//     is what the proxy reads, so no request finds the group/version unserved. Then it
//     waits for Available from the availability check of kruise-apiserver itself;
//  5. unserve: the CRDs' versions are set served: false (their old served versions are
//     kept in an annotation for the rollback). apiextensions-apiserver tears down the
//     CRDs' storage, which closes every watch still open on it (controllers that began
//     watching before the switch); their clients watch again, now on kruise-apiserver,
//     and see the same objects (same names, same UIDs): no DELETE event;
//  6. drain: waits the bound within which that teardown happens (1 s plus the in-flight
//     short requests, at most twice kube-apiserver's --request-timeout);
//  7. unfreeze: the policy is removed;
//  8. delete CRDs (unless --keep-crds): their objects are deleted from kube's etcd, seen by
//     no client as nothing can reach that storage any more.
//
// Before step 4, a failure undoes what was done (finalizers restored, policy removed)
// and leaves the cluster serving from the CRDs as before; the imported copies stay in
// kruise-apiserver, unserved, and a later run updates them. After step 4, --rollback
// points the APIServices back at the CRDs (served again, as they were) while the CRDs
// still exist.
package crdmove
