// Package hostile tests that kruise-controller stays bounded under hostile input: the
// largest replica counts and parallelism there are, in a namespace whose pod quota
// refuses all but a few creations (issue 32).
package hostile

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func TestMain(m *testing.M) { framework.Main(m) }
