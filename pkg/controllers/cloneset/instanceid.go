package cloneset

import (
	"fmt"

	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/sets"
)

// Instance ids are random, as OpenKruise's: 5 characters of utilrand's 27-letter
// alphabet (14 million ids). They are drawn at most idAttempts times per length, and
// a CloneSet whose pods hold so many ids that every draw collides gets longer ones,
// up to maxIDLength (10^14 ids; a pod name <cloneset>-<id> still fits the 63
// characters of a hostname, as validation bounds the name). Picking one never loops
// for ever and never runs out: it fails only when every draw at every length collides.
const (
	idLength    = 5
	maxIDLength = 10
	idAttempts  = 16
)

// instanceIDs hands out ids no pod of the CloneSet carries, nor any id handed out before.
type instanceIDs struct {
	used   sets.Set[string]
	random func(n int) string
}

func newInstanceIDs(used sets.Set[string]) *instanceIDs {
	return &instanceIDs{used: used, random: utilrand.String}
}

func (g *instanceIDs) next() (string, error) {
	for n := idLength; n <= maxIDLength; n++ {
		for range idAttempts {
			if id := g.random(n); !g.used.Has(id) {
				g.used.Insert(id)
				return id, nil
			}
		}
	}
	return "", fmt.Errorf("no free instance id after %d draws of %d to %d characters", idAttempts*(maxIDLength-idLength+1), idLength, maxIDLength)
}
