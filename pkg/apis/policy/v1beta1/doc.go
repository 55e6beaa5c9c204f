// Package v1beta1 is the v1beta1 version of policy.kruise.io: the storage version.
//
// +k8s:deepcopy-gen=package
// +k8s:conversion-gen=github.com/kruise-native/kruise-native/pkg/apis/policy
// +k8s:conversion-gen-external-types=github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1
// +k8s:defaulter-gen=TypeMeta
// +k8s:defaulter-gen-input=github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.kruise.policy.v1beta1
// +k8s:protobuf-gen=package
// +groupName=policy.kruise.io
package v1beta1
