package containerd

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// pullTimeout bounds one task in these tests: a one-layer image over loopback
// takes well under a second, the rest is slack for a shared machine.
const pullTimeout = time.Minute

// newManager returns an imagepuller.Manager on containerd's image service, as
// the daemon builds it, with short backoff so retries do not slow the test.
func (e *env) newManager(t *testing.T) (context.Context, *imagepuller.Manager) {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	m, err := imagepuller.NewManager(ctx, e.rt.cri.Images, imagepuller.Options{
		Backoff: imagepuller.Backoff{Initial: 50 * time.Millisecond, Max: 200 * time.Millisecond},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)
	return ctx, m
}

// run syncs one task under key and waits for it to finish.
func run(t *testing.T, m *imagepuller.Manager, key string, task imagepuller.Task) imagepuller.Status {
	t.Helper()
	m.Sync(map[string]imagepuller.Task{key: task})
	deadline := time.Now().Add(pullTimeout)
	for time.Now().Before(deadline) {
		if s, ok := m.Status(key); ok && s.Finished() {
			t.Logf("%s: %s after %d attempt(s), imageID %q, message %q", task.Image, s.Phase, s.Attempts, s.ImageID, s.Message)
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	s, _ := m.Status(key)
	t.Fatalf("%s did not finish within %s: %+v", task.Image, pullTimeout, s)
	return s
}

func (e *env) imageStatus(ctx context.Context, t *testing.T, image string) *runtimeapi.Image {
	t.Helper()
	resp, err := e.rt.cri.Images.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: image}})
	if err != nil {
		t.Fatalf("ImageStatus %s: %v", image, err)
	}
	return resp.GetImage()
}

// The first pull of an image goes to the registry and ends Succeeded with the
// image ID containerd reports for it, which is the image's config digest.
func (e *env) testPullSucceeds(t *testing.T) {
	ctx, m := e.newManager(t)
	image := e.reg.ref(publicImage)
	before := e.reg.manifestRequests(publicImage)

	s := run(t, m, "public", imagepuller.Task{Image: image, Version: 1})
	if s.Phase != imagepuller.PhaseSucceeded || s.Attempts != 1 || s.Progress != 100 {
		t.Fatalf("want Succeeded after 1 attempt with progress 100, got %+v", s)
	}
	if want := e.imageIDs[publicImage]; s.ImageID != want {
		t.Errorf("imageID = %q, want the config digest %q", s.ImageID, want)
	}
	if e.reg.manifestRequests(publicImage) == before {
		t.Errorf("the registry saw no manifest request for %s: nothing was pulled", publicImage)
	}
	img := e.imageStatus(ctx, t, image)
	if img.GetId() != s.ImageID {
		t.Errorf("containerd's ImageStatus id = %q, status imageID %q", img.GetId(), s.ImageID)
	}
	if !slices.Contains(img.GetRepoTags(), image) {
		t.Errorf("containerd's repo tags %v lack %s", img.GetRepoTags(), image)
	}
}

// A restarted daemon (a new Manager) finds the image through containerd's
// ImageStatus and does not pull with the default policy; Always pulls anyway.
func (e *env) testIfNotPresent(t *testing.T) {
	_, m := e.newManager(t)
	image := e.reg.ref(publicImage)
	if _, err := e.rt.cri.Images.PullImage(context.Background(), &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: image}}); err != nil {
		t.Fatalf("preparing: PullImage %s: %v", image, err)
	}
	before := e.reg.manifestRequests(publicImage)

	s := run(t, m, "present", imagepuller.Task{Image: image, Version: 1})
	if s.Phase != imagepuller.PhaseSucceeded || s.Attempts != 0 || s.ImageID != e.imageIDs[publicImage] {
		t.Fatalf("want Succeeded without an attempt and imageID %s, got %+v", e.imageIDs[publicImage], s)
	}
	if got := e.reg.manifestRequests(publicImage); got != before {
		t.Errorf("IfNotPresent reached the registry: %d manifest requests, want %d", got, before)
	}

	s = run(t, m, "present", imagepuller.Task{Image: image, Version: 2, PullPolicy: imagepuller.PullAlways})
	if s.Phase != imagepuller.PhaseSucceeded || s.Attempts != 1 {
		t.Fatalf("Always: want Succeeded after 1 attempt, got %+v", s)
	}
	if got := e.reg.manifestRequests(publicImage); got == before {
		t.Errorf("Always did not reach the registry")
	}
}

// A tag the registry does not have fails every attempt; the task ends Failed
// with containerd's own error text and the attempts counted.
func (e *env) testMissingTag(t *testing.T) {
	_, m := e.newManager(t)
	image := e.reg.ref(missingImage)
	before := e.reg.manifestRequests(missingImage)

	s := run(t, m, "missing", imagepuller.Task{Image: image, Version: 1, BackoffLimit: ptr.To[int32](2)})
	if s.Phase != imagepuller.PhaseFailed || s.Attempts != 3 {
		t.Fatalf("want Failed after 3 attempts (backoffLimit 2), got %+v", s)
	}
	for _, want := range []string{"pull failed after 3 attempts", "failed to pull and unpack image", image, "not found"} {
		if !strings.Contains(s.Message, want) {
			t.Errorf("message %q lacks %q", s.Message, want)
		}
	}
	if got := e.reg.manifestRequests(missingImage) - before; got < 3 {
		t.Errorf("the registry saw %d manifest requests for the missing tag, want at least one per attempt (3)", got)
	}
}

// Credentials travel in the CRI AuthConfig of PullImage and reach the
// registry as basic auth. Each case pulls with Always, so the registry is
// asked every time.
func (e *env) testCredentials(t *testing.T) {
	image := e.reg.ref(privateImage)
	noRetry := ptr.To[int32](0)

	t.Run("AnonymousIsRefused", func(t *testing.T) {
		_, m := e.newManager(t)
		_, rejectedBefore := e.reg.authStats(registryUser)
		s := run(t, m, "anon", imagepuller.Task{Image: image, Version: 1, PullPolicy: imagepuller.PullAlways, BackoffLimit: noRetry})
		if s.Phase != imagepuller.PhaseFailed || s.Attempts != 1 {
			t.Fatalf("want Failed after 1 attempt, got %+v", s)
		}
		if !strings.Contains(s.Message, "failed to pull and unpack image") || !strings.Contains(strings.ToLower(s.Message), "auth") {
			t.Errorf("message %q is not containerd's authorization error", s.Message)
		}
		if _, rejected := e.reg.authStats(registryUser); rejected == rejectedBefore {
			t.Errorf("the registry refused nothing")
		}
	})

	t.Run("WrongPasswordIsRefused", func(t *testing.T) {
		_, m := e.newManager(t)
		s := run(t, m, "wrong", imagepuller.Task{Image: image, Version: 1, PullPolicy: imagepuller.PullAlways, BackoffLimit: noRetry,
			Auths: []*runtimeapi.AuthConfig{{Username: registryUser, Password: "not-it"}}})
		if s.Phase != imagepuller.PhaseFailed || !strings.Contains(s.Message, "failed to pull and unpack image") {
			t.Fatalf("want Failed with containerd's error, got %+v", s)
		}
	})

	// The kubelet's shape: user and password, no server address.
	t.Run("AuthConfigReachesRegistry", func(t *testing.T) {
		_, m := e.newManager(t)
		acceptedBefore, _ := e.reg.authStats(registryUser)
		s := run(t, m, "kubelet-shape", imagepuller.Task{Image: image, Version: 1, PullPolicy: imagepuller.PullAlways,
			Auths: []*runtimeapi.AuthConfig{{Username: registryUser, Password: registryPassword}}})
		if s.Phase != imagepuller.PhaseSucceeded || s.ImageID != e.imageIDs[privateImage] {
			t.Fatalf("want Succeeded with imageID %s, got %+v", e.imageIDs[privateImage], s)
		}
		if accepted, _ := e.reg.authStats(registryUser); accepted == acceptedBefore {
			t.Errorf("no request with %s's credentials reached the registry", registryUser)
		}
	})

	// What the daemon really sends: the credential AuthsFromSecrets makes of a
	// NodeImage's pull secret. containerd's CRI plugin (ParseAuth, 1.6 and
	// later) reads server_address as a URL and uses the credential only when
	// its host is the registry's: an empty address (what the kubelet sends) or
	// "https://host:port" works, a bare "host:port" fails to parse and a bare
	// "host" has no URL host, so the pull silently goes anonymous.
	t.Run("PullSecretReachesRegistry", func(t *testing.T) {
		_, m := e.newManager(t)
		auths := imagepuller.AuthsFromSecrets(image, []*corev1.Secret{e.pullSecret(t)})
		if len(auths) != 1 {
			t.Fatalf("AuthsFromSecrets matched %d credentials for %s, want 1", len(auths), image)
		}
		t.Logf("AuthConfig sent: username %q, server_address %q", auths[0].GetUsername(), auths[0].GetServerAddress())
		acceptedBefore, _ := e.reg.authStats(registryUser)
		s := run(t, m, "secret", imagepuller.Task{Image: image, Version: 1, PullPolicy: imagepuller.PullAlways, BackoffLimit: noRetry, Auths: auths})
		if s.Phase != imagepuller.PhaseSucceeded || s.ImageID != e.imageIDs[privateImage] {
			t.Fatalf("want Succeeded with imageID %s, got %+v", e.imageIDs[privateImage], s)
		}
		if accepted, _ := e.reg.authStats(registryUser); accepted == acceptedBefore {
			t.Errorf("no request with %s's credentials reached the registry", registryUser)
		}
	})
}

// pullSecret is a kubernetes.io/dockerconfigjson secret for the test registry,
// keyed by host:port as `kubectl create secret docker-registry` writes it.
func (e *env) pullSecret(t *testing.T) *corev1.Secret {
	t.Helper()
	auth := base64.StdEncoding.EncodeToString([]byte(registryUser + ":" + registryPassword))
	cfg, err := json.Marshal(map[string]any{"auths": map[string]any{e.reg.host: map[string]string{
		"username": registryUser, "password": registryPassword, "auth": auth,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "regcred", Namespace: "kruise-daemon-config"},
		Type:       corev1.SecretTypeDockerConfigJson,
		Data:       map[string][]byte{corev1.DockerConfigJsonKey: cfg},
	}
}
