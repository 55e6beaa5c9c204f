// Package persistentpodstate tests PersistentPodStates end to end on the local control
// plane: kruise-controller records where the pods of an Advanced StatefulSet ran (and
// generates the PersistentPodState from the workload's annotations), and
// kruise-apiserver's pod webhook gives a pod recreated under a recorded name node
// affinity back to that topology, which kube-scheduler honours.
package persistentpodstate

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) {
	framework.Main(m)
}
