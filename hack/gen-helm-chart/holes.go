package main

import (
	"slices"
	"strings"
)

// A hole is a field of the kustomize output that the chart takes from its values. The
// generator puts the field's value from the kustomize output into values.yaml (so the
// defaults render the kustomize output exactly) and the reference into the template.
type hole struct {
	kind, name string
	// path to the field; a segment "name=x" picks the list item whose name is x.
	path []string
	// value is the key in values.yaml ("apiserver.image").
	value string
	// block values (maps, lists) render with toYaml | nindent; scalars inline.
	block bool
	// only limits the hole to some etcd modes (space-separated: "cluster external").
	only string
	// expr, when set, is the template expression the field becomes instead of the
	// value (a field derived from another value); value is then unused and no default
	// is recorded.
	expr string
}

// in reports whether the hole applies to the etcd mode.
func (h hole) in(mode string) bool {
	return h.only == "" || slices.Contains(strings.Fields(h.only), mode)
}

// holes are the chart's values: images, replicas, resources, the webhooks'
// failurePolicy and scope, and the single mode's volume size. Feature gates are an
// argument appended to the apiserver's and the controller's (featureGateArgs).
var holes = []hole{
	{kind: "Deployment", name: "kruise-apiserver", path: containerField("kruise-apiserver", "image"), value: "apiserver.image"},
	{kind: "Deployment", name: "kruise-apiserver", path: []string{"spec", "replicas"}, value: "apiserver.replicas", only: "cluster external"},
	{kind: "Deployment", name: "kruise-apiserver", path: containerField("kruise-apiserver", "resources"), value: "apiserver.resources", block: true},
	{kind: "Deployment", name: "kruise-controller", path: containerField("kruise-controller", "image"), value: "controller.image"},
	{kind: "Deployment", name: "kruise-controller", path: []string{"spec", "replicas"}, value: "controller.replicas"},
	{kind: "Deployment", name: "kruise-controller", path: containerField("kruise-controller", "resources"), value: "controller.resources", block: true},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: containerField("kruise-node-daemon", "image"), value: "nodeDaemon.image"},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: containerField("kruise-node-daemon", "resources"), value: "nodeDaemon.resources", block: true},
	{kind: "StatefulSet", name: "etcd", path: containerField("etcd", "image"), value: "etcd.image", only: "cluster"},
	{kind: "StatefulSet", name: "etcd", path: containerField("etcd", "resources"), value: "etcd.resources", block: true, only: "cluster"},
	{kind: "PersistentVolumeClaim", name: "kruise-apiserver-etcd", path: []string{"spec", "resources", "requests", "storage"}, value: "etcd.single.storage", only: "single"},
	{kind: "Deployment", name: "kruise-apiserver", path: append(containerField("kruise-apiserver", "env"), "name=ETCD_SERVERS", "value"), only: "external",
		expr: `required "etcd.mode=external needs etcd.external.servers, your etcd's client URLs (https, comma separated)" .Values.etcd.external.servers | quote`},
	{kind: "MutatingWebhookConfiguration", name: "kruise-pod-webhook", path: webhookField("pods.mutate.kruise-native.io", "failurePolicy"), value: "podWebhook.failurePolicy"},
	{kind: "MutatingWebhookConfiguration", name: "kruise-pod-webhook", path: webhookField("pods.mutate.kruise-native.io", "namespaceSelector"), value: "podWebhook.namespaceSelector", block: true},
	{kind: "MutatingWebhookConfiguration", name: "kruise-pod-webhook", path: webhookField("pods.mutate.kruise-native.io", "objectSelector"), value: "podWebhook.objectSelector", block: true},
	{kind: "ValidatingWebhookConfiguration", name: "kruise-pod-webhook", path: webhookField("pods.validate.kruise-native.io", "failurePolicy"), value: "podWebhook.validatingFailurePolicy"},
	{kind: "ValidatingWebhookConfiguration", name: "kruise-pod-webhook", path: webhookField("pods.validate.kruise-native.io", "namespaceSelector"), value: "podWebhook.namespaceSelector", block: true},
	{kind: "ValidatingWebhookConfiguration", name: "kruise-pod-webhook", path: webhookField("pods.validate.kruise-native.io", "objectSelector"), value: "podWebhook.objectSelector", block: true},
	{kind: "ValidatingWebhookConfiguration", name: "kruise-pod-webhook", path: webhookField("deletion.validate.kruise-native.io", "failurePolicy"), value: "deletionWebhook.failurePolicy"},
	{kind: "Deployment", name: "kruise-apiserver", path: containerField("kruise-apiserver", "imagePullPolicy"), value: "imagePullPolicy"},
	{kind: "Deployment", name: "kruise-controller", path: containerField("kruise-controller", "imagePullPolicy"), value: "imagePullPolicy"},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: containerField("kruise-node-daemon", "imagePullPolicy"), value: "imagePullPolicy"},
	// The runtime socket: its path for the daemon, its directory for the mount.
	{kind: "DaemonSet", name: "kruise-node-daemon", path: append(containerField("kruise-node-daemon", "env"), "name=RUNTIME_SOCKET", "value"), value: "nodeDaemon.runtimeSocket"},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: append(containerField("kruise-node-daemon", "volumeMounts"), "name=runtime-socket-dir", "mountPath"), expr: "dir .Values.nodeDaemon.runtimeSocket | quote"},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: []string{"spec", "template", "spec", "volumes", "name=runtime-socket-dir", "hostPath", "path"}, expr: "dir .Values.nodeDaemon.runtimeSocket | quote"},
}

// An insert is a field only the chart has, rendered by a named template of
// _helpers.tpl (include) at the place the field would take: the certificates the chart
// makes (certificates.mode) and the Pod webhook's initial call scope.
type insert struct {
	kind, name string
	// path to the new field; its parent must exist.
	path []string
	// tpl is the named template; it gets (dict "root" $ "indent" N "args" args).
	tpl  string
	args string
}

// webhookEntries are the entries of the two kruise-pod-webhook configurations.
var webhookEntries = []struct{ kind, name string }{
	{"MutatingWebhookConfiguration", "pods.mutate.kruise-native.io"},
	{"ValidatingWebhookConfiguration", "pods.validate.kruise-native.io"},
	{"ValidatingWebhookConfiguration", "deletion.validate.kruise-native.io"},
}

// inserts: every webhook entry gets the chart's CA (certificates.mode helm); both
// configurations cert-manager's annotation (certManager); the Pod webhook's entries
// their initial call scope (see callScopeTpl).
func inserts() []insert {
	var out []insert
	for _, e := range webhookEntries {
		out = append(out, insert{kind: e.kind, name: "kruise-pod-webhook",
			path: append(webhookField(e.name, "clientConfig"), "caBundle"), tpl: "kruise-native.caBundle"})
		if e.name != "deletion.validate.kruise-native.io" {
			out = append(out, insert{kind: e.kind, name: "kruise-pod-webhook",
				path: webhookField(e.name, "matchConditions"), tpl: "kruise-native.callScope",
				args: e.kind + "/" + e.name})
		}
	}
	for _, k := range []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"} {
		out = append(out, insert{kind: k, name: "kruise-pod-webhook", path: []string{"metadata", "annotations"}, tpl: "kruise-native.caInjection"})
	}
	return out
}

// featureGateArgs are the containers that take --feature-gates from the values.
var featureGateArgs = []hole{
	{kind: "Deployment", name: "kruise-apiserver", path: containerField("kruise-apiserver", "args")},
	{kind: "Deployment", name: "kruise-controller", path: containerField("kruise-controller", "args")},
}

func containerField(container, field string) []string {
	return []string{"spec", "template", "spec", "containers", "name=" + container, field}
}

func webhookField(webhook, field string) []string {
	return []string{"webhooks", "name=" + webhook, field}
}
