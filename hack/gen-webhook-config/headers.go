package main

// The explanations at the top of each file, before the generated list of handlers.

const deployHeader = `The Pod webhook kruise-apiserver serves on its TLS port: at pod CREATE it injects the
sidecars of the SidecarSets that select the pod, holds containers back by launch
priority (apps.kruise.io/container-launch-priority, KRUISE_CONTAINER_PRIORITY), and,
with --pod-webhook-readiness-gate, gives pods of CloneSets and Advanced StatefulSets
the KruisePodReady readiness gate. Status writes never call it.

Its validating entry (pods.validate.kruise-native.io) guards PodUnavailableBudgets: pod
DELETE, pods/eviction CREATE and pod UPDATEs that change the spec (in-place updates)
of a ready pod a budget covers are refused with 429 naming the budget when the budget
has no slot left, and spend a slot (a write of the budget's status) when it has one.
sideEffects NoneOnDryRun: a dry run spends nothing.

Scope: every namespace but the control plane's and kruise-system (whose kruise-apiserver
pods must never wait for the webhook they serve); a namespace or a pod labelled
kruise-native.io/pod-webhook=disabled opts out.

failurePolicy is the trade-off between availability and guaranteed injection:
- Ignore (default): while kruise-apiserver is unreachable pods are created anyway,
  without their sidecars, launch barrier and readiness gate. Nothing in the cluster
  waits for Kruise; the SidecarSet controller reports a selected pod that missed its
  injection (an event on the pod). Recreate such pods once the webhook is back.
- Fail: pods in scope are refused while the webhook is unreachable, and their owners
  (ReplicaSets, CloneSets, Jobs) retry until it is back. Use it when a pod must never
  run without its sidecar (e.g. a security proxy), and then narrow the scope to the
  namespaces that need it (e.g. namespaceSelector matchLabels sidecars: required),
  so nothing else depends on kruise-apiserver's availability. Its two replicas and
  PodDisruptionBudget keep it reachable through node drains and rollouts.
  For the PodUnavailableBudget guard, Ignore means budgets fail open while
  kruise-apiserver is unreachable: deletions, evictions and in-place updates go through
  unchecked (kube-apiserver counts each in apiserver_admission_webhook_fail_open_count
  and logs it), and the budget's controller counts the pods that went once it is back.
  With Fail, pods covered or not cannot be deleted, evicted or updated in scope while
  kruise-apiserver is down, node drains included; again narrow the scope if you choose it.
timeoutSeconds bounds what an unresponsive kruise-apiserver adds to each pod create,
update, deletion and eviction in scope.

Callers: the webhook's answers carry SidecarSet contents (images, env values), so
kruise-apiserver answers only users granted ` + "`post`" + ` on its webhook paths
(artifacts/deploy/rbac/pod-webhook-caller.yaml: kube-apiserver-webhook-client). Give
kube-apiserver that identity for host kruise-apiserver.kruise-system.svc:443 with
--admission-control-config-file (artifacts/deploy/README.md, "Pod webhook caller");
until then it calls anonymously, gets 403, and failurePolicy applies.

The deletion-protection webhook (deletion.validate.kruise-native.io, in the
ValidatingWebhookConfiguration) refuses DELETE of Namespaces, CRDs, Deployments,
ReplicaSets and StatefulSets labelled policy.kruise.io/delete-protection: Always
always, Cascading while they have active children. Its objectSelector sends only
labelled objects, and it never sees the four namespaces above (for a Namespace the
namespaceSelector is matched against the namespace itself). failurePolicy Ignore:
while kruise-apiserver is unreachable protected objects delete, and kruise-controller
counts each such deletion (kruise_deletion_protection_unguarded_deletes_total{kind},
a log line, a Warning event UnguardedDeletion); the reasons, and when to choose Fail,
are in README.md, "Webhooks while kruise-apiserver is down". 5 s: a Cascading check
lists through kube-apiserver.

caBundle: set by the cert-manager component, or by hack/gen-certs.sh --apply.
`

const localHeader = `The local stack's registration of kruise-apiserver's Pod webhook: the same as
artifacts/deploy/apiserver/pod-webhook.yaml (scope and failurePolicy trade-off are
explained there), but kruise-apiserver runs on this host, so kube-apiserver calls it
at https://127.0.0.1:<port> (a Service cannot point at loopback) and verifies it
with the local kruise CA. Pod webhook failurePolicy: $POD_WEBHOOK_FAILURE_POLICY
(default Ignore); the deletion-protection webhook's is Ignore, as in a cluster.
kube-apiserver presents its webhook client certificate (user kube-apiserver-webhook-client)
to 127.0.0.1:<port>: hack/local-up.sh's --admission-control-config-file keys it by this
URL's host:port. kruise-apiserver refuses any other caller (hack/LOCAL.md).
`
