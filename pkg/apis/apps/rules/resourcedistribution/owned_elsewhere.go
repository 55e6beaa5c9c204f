package resourcedistribution

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// rootCAConfigMap is the ConfigMap kube-controller-manager's root-ca-cert-publisher
// keeps in every namespace.
const rootCAConfigMap = "kube-root-ca.crt"

// OwnedElsewhere refuses resources whose copies another controller of the cluster
// writes too. A copy must be written by the distribution alone: when a second writer
// changes it, each rewrites the other's change for ever (a ServiceAccount token Secret
// made kruise-controller and kube-controller-manager's token controller write it about
// 20 times a second). Refused, with the field that says why:
//
//   - Secrets of type kubernetes.io/service-account-token: kube-controller-manager's
//     token controller fills in their token, ca.crt and namespace, and deletes the
//     Secret when the ServiceAccount it names does not exist in the copy's namespace.
//     (A distributed copy would also have it mint a token for a ServiceAccount of every
//     target namespace.) Use a TokenRequest or a projected token instead.
//   - Secrets of type bootstrap.kubernetes.io/token: bootstrap tokens are read, signed
//     and cleaned up only in kube-system, which is never a target; a copy elsewhere
//     would do nothing but spread a credential.
//   - the ConfigMap kube-root-ca.crt: kube-controller-manager's root-ca-cert-publisher
//     creates it in every namespace and puts its own data back whenever it differs.
//
// Every other Secret type (Opaque, dockerconfigjson, tls, basic-auth, ...) and every
// other ConfigMap name is written by nobody but the distribution.
func OwnedElsewhere(res *Resource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case res.Secret != nil:
		switch res.Secret.Type {
		case corev1.SecretTypeServiceAccountToken:
			errs = append(errs, field.Forbidden(fldPath.Child("type"),
				"kube-controller-manager's token controller writes Secrets of type "+string(corev1.SecretTypeServiceAccountToken)+
					" (it fills in the token and deletes it where the ServiceAccount is missing): a copy would be rewritten by both for ever; "+
					"use a TokenRequest or a projected ServiceAccount token instead"))
		case corev1.SecretTypeBootstrapToken:
			errs = append(errs, field.Forbidden(fldPath.Child("type"),
				"bootstrap tokens are used only in kube-system, which never gets a copy: a copy elsewhere would only spread the credential"))
		}
	case res.ConfigMap != nil:
		if res.ConfigMap.Name == rootCAConfigMap {
			errs = append(errs, field.Forbidden(fldPath.Child("metadata", "name"),
				"kube-controller-manager's root-ca-cert-publisher writes the ConfigMap "+rootCAConfigMap+" in every namespace: "+
					"a copy would be rewritten by both for ever"))
		}
	}
	return errs
}
