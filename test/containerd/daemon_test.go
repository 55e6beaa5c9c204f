package containerd

import (
	"testing"
	"time"

	"k8s.io/klog/v2/ktesting"
)

// Images the test registry serves, all built from the sleeper binary; each has
// its own ID.
const (
	publicImage  = "kruise/test:v1"
	pauseImage   = "kruise/pause:v1"
	privateImage = privateRepoPrefix + "app:v1"
	missingImage = "kruise/test:missing"

	registryUser     = "kruise"
	registryPassword = "s3cret-for-tests"
)

// env is what the subtests share: one registry, one containerd.
type env struct {
	reg      *testRegistry
	rt       *runtimeProc
	imageIDs map[string]string // repo:tag → config digest, the ID containerd must report
}

// TestDaemonAgainstContainerd starts an OCI registry and a private containerd,
// then drives the node daemon's pull engine and container executor against
// containerd's CRI v1 service. Subtests share both servers and each leaves
// containerd's images and pods in a state the next one does not depend on
// (each pulls or checks what it needs itself).
func TestDaemonAgainstContainerd(t *testing.T) {
	bin := requireContainerd(t)
	_, ctx := ktesting.NewTestContext(t)
	begin := time.Now()

	reg := startRegistry(t, registryUser, registryPassword)
	sleeper, err := buildSleeper(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{reg: reg, imageIDs: map[string]string{}}
	for _, name := range []string{publicImage, pauseImage, privateImage} {
		img, err := sleeperImage(sleeper, name)
		if err != nil {
			t.Fatal(err)
		}
		if err := reg.push(name, img); err != nil {
			t.Fatal(err)
		}
		id, err := img.ConfigName()
		if err != nil {
			t.Fatal(err)
		}
		e.imageIDs[name] = id.String()
	}
	t.Logf("registry at %s with %d images, sleeper built: %s", reg.host, len(e.imageIDs), time.Since(begin).Round(time.Millisecond))

	l := newLayout(t.TempDir())
	if err := writeRegistryHosts(l, reg.host); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	e.rt = startContainerd(ctx, t, bin, l, reg.ref(pauseImage))
	t.Logf("containerd up in %s", time.Since(started).Round(time.Millisecond))

	t.Run("PullSucceedsWithRuntimeImageID", e.testPullSucceeds)
	t.Run("IfNotPresentAnsweredByImageStatus", e.testIfNotPresent)
	t.Run("MissingTagFailsWithRuntimeErrorAfterRetries", e.testMissingTag)
	t.Run("Credentials", e.testCredentials)
	t.Run("RecreateContainer", e.testRecreate)
}
