// Package validation holds the rules for policy.kruise.io objects, applied by
// kruise-apiserver on the internal types for every version.
package validation
