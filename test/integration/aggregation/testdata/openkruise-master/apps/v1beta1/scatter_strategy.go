// Source: github.com/openkruise/kruise apis/apps/v1beta1/scatter_strategy.go at
// ece4b037308070c9120f453f3a4a97b99a2b3410 (Apache-2.0, Copyright The Kruise Authors).
// Reduced to the type declarations and their json tags (comments dropped): the input
// of hack/openkruise-fields, never compiled.

package v1beta1

type UpdateScatterStrategy []UpdateScatterTerm

type UpdateScatterTerm struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}
