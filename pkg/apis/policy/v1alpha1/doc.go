// Package v1alpha1 is the v1alpha1 version of policy.kruise.io: the version the documented manifests use.
//
// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/kruise-native/kruise-native/pkg/apis/policy
// +k8s:conversion-gen-external-types=github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1
// +k8s:defaulter-gen=TypeMeta
// +k8s:defaulter-gen-input=github.com/kruise-native/kruise-native/pkg/apis/policy/v1alpha1
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.kruise.policy.v1alpha1
// +k8s:protobuf-gen=package
// +groupName=policy.kruise.io
package v1alpha1
