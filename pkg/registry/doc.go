// Package registry is the home of kruise-apiserver's REST storage.
//
// Adding a kind: write its types (pkg/apis/<group>), its validation, and one
// resource.Kind in pkg/registry/<group>/<kind>/kind.go; list it in kinds.All and give
// it a conformance fixture in kinds/conformance_test.go. resource.Storage then builds
// its main endpoint, status and any scale, rollback or further subresource for every
// version it names, with the status/generation discipline, table, warnings and storage
// every other kind has; pkg/apiserver serves them in the kind's group.
package registry
