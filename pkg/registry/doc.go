// Package registry is the home of kruise-apiserver's REST storage.
//
// Adding a kind: write its types (pkg/apis/<group>), its validation, and one
// resource.Kind in pkg/registry/<group>/<kind>/kind.go; list it in kinds.All and give
// it a conformance fixture in kinds/conformance_test.go. resource.Install then serves
// its main endpoint, status and any scale, rollback or further subresource in every
// version it names, in its group, with the status/generation discipline, table,
// warnings and storage every other kind has.
package registry
