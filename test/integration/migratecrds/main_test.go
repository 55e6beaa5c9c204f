// Package migratecrds moves a stand-in OpenKruise cluster — the Kruise kinds served
// from CRDs in apps.kruise.io and policy.kruise.io, generated from our own types, with
// objects, ControllerRevisions and pods made as OpenKruise's controllers make them —
// to kruise-apiserver with `kubectl kruise migrate-from-crds`, and checks that no pod
// is deleted, recreated or restarted on the way.
//
// The stack starts as every integration stack does; each test then stops
// kruise-controller (OpenKruise's controllers are stopped before a migration) and
// removes the Kruise APIServices, so that kruise-apiserver runs unregistered, as in a
// cluster where Kruise Native was installed beside OpenKruise.
package migratecrds

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
