package statefulset

import "github.com/kruise-native/kruise-native/pkg/controllers/internal/ordinals"

// The ordinal arithmetic lives in pkg/controllers/internal/ordinals (the
// PersistentPodState controller asks it too); the set's code names it as before.
type (
	Reserved = ordinals.Reserved
	Desired  = ordinals.Desired
)

// MaxOrdinal is the highest ordinal a set runs (ordinals.MaxOrdinal).
const MaxOrdinal = ordinals.MaxOrdinal

var (
	ParseReserved = ordinals.ParseReserved
	NewDesired    = ordinals.NewDesired
	OrdinalOf     = ordinals.OrdinalOf
	PodName       = ordinals.PodName
)
