package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// chartOnlyValues are values of what only the chart has (no kustomize field holds
// their default).
var chartOnlyValues = map[string]interface{}{
	// helm: the chart makes its CA and certificates (kept across upgrades);
	// certManager: cert-manager issues them (artifacts/deploy/cert-manager);
	// external: you create the Secrets (hack/gen-certs.sh --apply).
	"certificates.mode": "helm",
	// How long the post-install hook waits for a Ready kruise-apiserver, and then for
	// Available APIServices (each; keep their sum under helm's --timeout, 5m).
	"installHooks.timeout": "2m",
	// What the post-install hook does where OpenKruise's CRDs serve the Kruise groups:
	// fail (register nothing, fail the release) or leave (register nothing, succeed;
	// `kubectl kruise migrate-from-crds` switches the APIServices later).
	"installHooks.whenCRDsServe": "fail",
	// etcd.mode=external: the etcd client URLs, https and comma separated, and the
	// client certificate (PEM; or leave them empty and create the Secret yourself).
	"etcd.external.servers": "",
	"etcd.external.ca":      "",
	"etcd.external.cert":    "",
	"etcd.external.key":     "",
}

const chartOnlyLabels = `  labels:
    app.kubernetes.io/part-of: kruise-native
    app.kubernetes.io/component: install-hooks
`

// apiServicesConfigMap holds the base's APIServices for the post-install hook, which
// registers them once kruise-apiserver is Ready, and the pre-delete hook, which removes
// them: registered with the rest, they would break discovery while the pods start.
func apiServicesConfigMap(apis string) string {
	var b strings.Builder
	b.WriteString(generatedHeader)
	b.WriteString("# The APIServices of artifacts/deploy/common/apiservices.yaml, registered by the\n# post-install hook (job-kruise-native-register-apiservices.yaml) once kruise-apiserver is\n# Ready, removed by the pre-delete hook.\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kruise-native-apiservices\n  namespace: kruise-system\n")
	b.WriteString(chartOnlyLabels)
	b.WriteString("data:\n  apiservices.yaml: |\n")
	for _, line := range strings.Split(strings.TrimRight(apis, "\n"), "\n") {
		b.WriteString("    " + line + "\n")
	}
	return b.String()
}

// extraFiles are the chart's own templates: the install hooks and their RBAC, the
// certificates (certificates.mode), NOTES.txt.
func extraFiles(root string) (map[string]string, error) {
	files := map[string]string{
		"templates/NOTES.txt": notesTxt,
		"templates/serviceaccount-kruise-native-install-hooks.yaml":     generatedHeader + hookServiceAccount,
		"templates/clusterrole-kruise-native-install-hooks.yaml":        generatedHeader + hookClusterRole,
		"templates/clusterrolebinding-kruise-native-install-hooks.yaml": generatedHeader + hookClusterRoleBinding,
		"templates/role-kruise-native-install-hooks.yaml":               generatedHeader + hookRole,
		"templates/rolebinding-kruise-native-install-hooks.yaml":        generatedHeader + hookRoleBinding,
		"templates/job-kruise-native-register-apiservices.yaml":         generatedHeader + fmt.Sprintf(hookJob, "register-apiservices", "post-install,post-upgrade", "register-apiservices\n        - --timeout={{ .Values.installHooks.timeout }}\n        - --when-crds-serve={{ .Values.installHooks.whenCRDsServe }}"),
		"templates/job-kruise-native-pre-delete.yaml":                   generatedHeader + fmt.Sprintf(hookJob, "pre-delete", "pre-delete", "pre-delete"),
		"templates/secret-kruise-apiserver-cert.yaml":                   generatedHeader + servingSecret,
		"templates/secret-etcd-member-cert.yaml":                        generatedHeader + fmt.Sprintf(etcdSecret, "etcd-member-cert", "etcdMember"),
		"templates/secret-kruise-apiserver-etcd-client-cert.yaml":       generatedHeader + fmt.Sprintf(etcdSecret, "kruise-apiserver-etcd-client-cert", "etcdClient") + externalEtcdClientSecret,
	}
	cm, err := certManagerTemplate(root)
	if err != nil {
		return nil, err
	}
	files["templates/cert-manager.yaml"] = cm
	return files, nil
}

// certManagerTemplate is the objects of the kustomize component artifacts/deploy/
// cert-manager for certificates.mode=certManager; the etcd ones only with the etcd
// cluster. (The component's patch, cainjector's annotation on the APIServices, has no
// counterpart: the chart's APIServices get the CA from the hook.)
func certManagerTemplate(root string) (string, error) {
	var b strings.Builder
	b.WriteString(generatedHeader)
	b.WriteString("{{- if eq .Values.certificates.mode \"certManager\" }}\n")
	for _, f := range []string{"issuer.yaml", "certificate.yaml", "etcd.yaml"} {
		objs, err := readObjects(filepath.Join(root, "artifacts/deploy/cert-manager", f))
		if err != nil {
			return "", err
		}
		if f == "etcd.yaml" {
			b.WriteString("{{- if eq .Values.etcd.mode \"cluster\" }}\n")
		}
		for _, o := range objs {
			meta, _ := o["metadata"].(map[string]interface{})
			labels, _ := meta["labels"].(map[string]interface{})
			if labels == nil {
				labels = map[string]interface{}{}
			}
			labels["app.kubernetes.io/part-of"] = "kruise-native"
			meta["labels"] = labels
			data, err := yaml.Marshal(o)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "---\n%s", data)
		}
		if f == "etcd.yaml" {
			b.WriteString("{{- end }}\n")
		}
	}
	b.WriteString("{{- end }}\n")
	return b.String(), nil
}

func readObjects(path string) ([]object, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var out []object
	for {
		var o object
		if err := dec.Decode(&o); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if o != nil {
			out = append(out, o)
		}
	}
}

const hookServiceAccount = `# The identity of the install hooks (job-kruise-native-*.yaml): a release object, so that
# it exists while the post-install and pre-delete hooks run.
apiVersion: v1
kind: ServiceAccount
metadata:
  name: kruise-native-install-hooks
  namespace: kruise-system
` + chartOnlyLabels

const hookClusterRole = `# The install hooks register and remove the four Kruise APIServices, and list the Kruise
# objects that must be gone before an uninstall (pkg/installhooks).
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: kruise-native-install-hooks
` + chartOnlyLabels + `rules:
- apiGroups: [apiregistration.k8s.io]
  resources: [apiservices]
  verbs: [create]
- apiGroups: [apiregistration.k8s.io]
  resources: [apiservices]
  resourceNames: [v1beta1.apps.kruise.io, v1alpha1.apps.kruise.io, v1beta1.policy.kruise.io, v1alpha1.policy.kruise.io]
  verbs: [get, update, delete]
- apiGroups: [apps.kruise.io]
  resources: [clonesets, statefulsets, daemonsets, broadcastjobs, advancedcronjobs, uniteddeployments, resourcedistributions]
  verbs: [list]
`

const hookClusterRoleBinding = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: kruise-native-install-hooks
` + chartOnlyLabels + `roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: kruise-native-install-hooks
subjects:
- kind: ServiceAccount
  name: kruise-native-install-hooks
  namespace: kruise-system
`

const hookRole = `# The post-install hook waits for a Ready endpoint of kruise-apiserver's Service and
# reads the serving CA (ca.crt) for the APIServices' caBundle.
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: kruise-native-install-hooks
  namespace: kruise-system
` + chartOnlyLabels + `rules:
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [list]
- apiGroups: [""]
  resources: [secrets]
  resourceNames: [kruise-apiserver-cert]
  verbs: [get]
`

const hookRoleBinding = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: kruise-native-install-hooks
  namespace: kruise-system
` + chartOnlyLabels + `roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: kruise-native-install-hooks
subjects:
- kind: ServiceAccount
  name: kruise-native-install-hooks
  namespace: kruise-system
`

// hookJob: %[1]s the step (kruise-controller install-hook <step>), %[2]s the hooks,
// %[3]s the arguments after install-hook. Kept when it fails, for its log (kubectl -n
// kruise-system logs job/kruise-native-<step>); deleted when it succeeds or runs again.
const hookJob = `# A Helm hook: kruise-controller install-hook %[1]s (pkg/installhooks).
apiVersion: batch/v1
kind: Job
metadata:
  name: kruise-native-%[1]s
  namespace: kruise-system
` + chartOnlyLabels + `  annotations:
    helm.sh/hook: %[2]s
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/part-of: kruise-native
        app.kubernetes.io/component: install-hooks
    spec:
      serviceAccountName: kruise-native-install-hooks
      restartPolicy: Never
      securityContext:
        runAsNonRoot: true
        runAsUser: 65532
        seccompProfile:
          type: RuntimeDefault
      containers:
      - name: %[1]s
        image: {{ .Values.controller.image }}
        imagePullPolicy: {{ .Values.imagePullPolicy }}
        args:
        - install-hook
        - %[3]s
        resources:
          requests:
            cpu: 10m
            memory: 32Mi
          limits:
            memory: 128Mi
        securityContext:
          allowPrivilegeEscalation: false
          readOnlyRootFilesystem: true
          capabilities:
            drop: [ALL]
        volumeMounts:
        - name: apiservices
          mountPath: /etc/kruise-native
          readOnly: true
      volumes:
      - name: apiservices
        configMap:
          name: kruise-native-apiservices
`

const servingSecret = `# certificates.mode=helm: kruise-apiserver's serving certificate and its CA, made by the
# chart (kruise-native.certs.load) on install and kept on upgrade.
{{- if eq .Values.certificates.mode "helm" }}
{{- include "kruise-native.certs.load" $ }}
apiVersion: v1
kind: Secret
metadata:
  name: kruise-apiserver-cert
  namespace: kruise-system
  labels:
    app.kubernetes.io/part-of: kruise-native
data:
  tls.crt: {{ .Values.__kruiseNativeCerts.servingCrt }}
  tls.key: {{ .Values.__kruiseNativeCerts.servingKey }}
  ca.crt: {{ .Values.__kruiseNativeCerts.ca }}
{{- end }}
`

// externalEtcdClientSecret: etcd.mode=external, the client certificate given as values
// (helm install --set-file etcd.external.ca=... ); without them the Secret is yours to
// create, which cannot precede the install (the chart owns the namespace).
const externalEtcdClientSecret = `{{- if and (eq .Values.etcd.mode "external") .Values.etcd.external.cert }}
---
# etcd.mode=external: the client certificate your etcd trusts, from the values
# etcd.external.ca, etcd.external.cert and etcd.external.key (PEM).
apiVersion: v1
kind: Secret
metadata:
  name: kruise-apiserver-etcd-client-cert
  namespace: kruise-system
  labels:
    app.kubernetes.io/part-of: kruise-native
data:
  tls.crt: {{ .Values.etcd.external.cert | b64enc }}
  tls.key: {{ required "etcd.external.key is needed with etcd.external.cert" .Values.etcd.external.key | b64enc }}
  ca.crt: {{ required "etcd.external.ca is needed with etcd.external.cert" .Values.etcd.external.ca | b64enc }}
{{- end }}
`

// etcdSecret: %[1]s the Secret, %[2]s its certificate in kruise-native.certs.load.
const etcdSecret = `# certificates.mode=helm with the etcd cluster: an etcd certificate and the etcd CA, made by
# the chart (kruise-native.certs.load) on install and kept on upgrade.
{{- if and (eq .Values.certificates.mode "helm") (eq .Values.etcd.mode "cluster") }}
{{- include "kruise-native.certs.load" $ }}
apiVersion: v1
kind: Secret
metadata:
  name: %[1]s
  namespace: kruise-system
  labels:
    app.kubernetes.io/part-of: kruise-native
data:
  tls.crt: {{ .Values.__kruiseNativeCerts.%[2]sCrt }}
  tls.key: {{ .Values.__kruiseNativeCerts.%[2]sKey }}
  ca.crt: {{ .Values.__kruiseNativeCerts.etcdCA }}
{{- end }}
`
