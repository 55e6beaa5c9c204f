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

// holes are the chart's values: images, replicas, resources and the single mode's
// volume size. The webhooks' failurePolicy and scope are kruise-apiserver's flags
// (argHoles); feature gates an argument appended to the apiserver's, the controller's
// and the node daemon's (featureGateArgs).
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
	{kind: "Deployment", name: "kruise-apiserver", path: containerField("kruise-apiserver", "imagePullPolicy"), value: "imagePullPolicy"},
	{kind: "Deployment", name: "kruise-controller", path: containerField("kruise-controller", "imagePullPolicy"), value: "imagePullPolicy"},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: containerField("kruise-node-daemon", "imagePullPolicy"), value: "imagePullPolicy"},
	// The runtime socket: its path for the daemon, its directory for the mount.
	{kind: "DaemonSet", name: "kruise-node-daemon", path: append(containerField("kruise-node-daemon", "env"), "name=RUNTIME_SOCKET", "value"), value: "nodeDaemon.runtimeSocket"},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: append(containerField("kruise-node-daemon", "volumeMounts"), "name=runtime-socket-dir", "mountPath"), expr: "dir .Values.nodeDaemon.runtimeSocket | quote"},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: []string{"spec", "template", "spec", "volumes", "name=runtime-socket-dir", "hostPath", "path"}, expr: "dir .Values.nodeDaemon.runtimeSocket | quote"},
}

// An argHole is a flag of a container's args (--flag=value) that the chart takes from
// its values: the default is the kustomize output's value, the argument is rendered from
// the value (as compact JSON with sorted keys, as helm's toJson writes it, when json).
type argHole struct {
	kind, name, container, flag, value string
	json                               bool
}

// argHoles are kruise-apiserver's Pod webhook registration flags: it registers the
// webhooks itself, so the chart carries no webhook configuration, only these values.
var argHoles = []argHole{
	{"Deployment", "kruise-apiserver", "kruise-apiserver", "--pod-webhook-failure-policy", "podWebhook.failurePolicy", false},
	{"Deployment", "kruise-apiserver", "kruise-apiserver", "--pod-webhook-validating-failure-policy", "podWebhook.validatingFailurePolicy", false},
	{"Deployment", "kruise-apiserver", "kruise-apiserver", "--pod-webhook-namespace-selector", "podWebhook.namespaceSelector", true},
	{"Deployment", "kruise-apiserver", "kruise-apiserver", "--pod-webhook-object-selector", "podWebhook.objectSelector", true},
	{"Deployment", "kruise-apiserver", "kruise-apiserver", "--deletion-webhook-failure-policy", "deletionWebhook.failurePolicy", false},
}

// featureGateArgs are the containers that take --feature-gates from the values.
var featureGateArgs = []hole{
	{kind: "Deployment", name: "kruise-apiserver", path: containerField("kruise-apiserver", "args")},
	{kind: "Deployment", name: "kruise-controller", path: containerField("kruise-controller", "args")},
	{kind: "DaemonSet", name: "kruise-node-daemon", path: containerField("kruise-node-daemon", "args")},
}

func containerField(container, field string) []string {
	return []string{"spec", "template", "spec", "containers", "name=" + container, field}
}
