package sidecarset

import (
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/podpatch"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// A cold upgrade is one patch: the new image, the new hashes and the state; the pod is
// mid-upgrade until the runtime reports the new image, then updated and consistent.
func TestColdUpgrade(t *testing.T) {
	v1, v2 := newSidecarSet("log:v1", false), newSidecarSet("log:v2", false)
	pod := injectedPod(t, "web-0", v1)
	tg := mustTarget(t, v2)
	if s := classify(pod, tg, nil); s.updated || !s.inPlace || !s.consistent || !s.ready {
		t.Fatalf("before: %+v", s)
	}
	next, err := upgrade(pod, tg, map[string]bool{"log": true}, now)
	if err != nil {
		t.Fatal(err)
	}
	if image(next, "log") != "log:v2" || image(next, "app") != "web:v1" {
		t.Errorf("images = %s, %s: only the sidecar changes", image(next, "log"), image(next, "app"))
	}
	patch, err := podpatch.Bytes(pod, next)
	if err != nil || patch == nil {
		t.Fatalf("patch: %s, %v", patch, err)
	}
	if s := classify(next, tg, nil); !s.updated || s.consistent {
		t.Errorf("patched, old image still running: %+v, want updated and not consistent", s)
	}
	if st := upgradeStates(next)["mesh"]; st.LastContainerStatuses["log"].ImageID != "sha-log:v1" || st.Revision != "mesh-rev" {
		t.Errorf("state = %+v", st)
	}
	runAll(next, true)
	if s := classify(next, tg, nil); !s.updated || !s.consistent {
		t.Errorf("after the runtime switched: %+v", s)
	}
}

// A change beyond images cannot be upgraded in place.
func TestNonImageChange(t *testing.T) {
	v1 := newSidecarSet("log:v1", false)
	v2 := newSidecarSet("log:v1", false)
	v2.Spec.Containers[0].Command = []string{"run", "--verbose"}
	if s := classify(injectedPod(t, "web-0", v1), mustTarget(t, v2), nil); s.updated || s.inPlace {
		t.Errorf("command change: %+v, want neither updated nor in place", s)
	}
}

// A hot upgrade gives the idle container the new image; once it runs and is ready it
// takes over and the old one goes back to the empty image.
func TestHotUpgrade(t *testing.T) {
	v1, v2 := newSidecarSet("log:v1", true), newSidecarSet("log:v1", true)
	v2.Spec.Containers[1].Image = "envoy:v2"
	pod := injectedPod(t, "web-0", v1)
	tg := mustTarget(t, v2)
	sidecars := map[string]bool{"log": true, "envoy": true}

	next, err := upgrade(pod, tg, sidecars, now)
	if err != nil {
		t.Fatal(err)
	}
	if image(next, "envoy-1") != "envoy:v1" || image(next, "envoy-2") != "envoy:v2" {
		t.Fatalf("phase 1: envoy-1 %s envoy-2 %s, want the idle envoy-2 upgraded", image(next, "envoy-1"), image(next, "envoy-2"))
	}
	if next.Annotations[pub.SidecarSetVersionAnnotation("envoy-2")] != "2" || next.Annotations[pub.SidecarSetVersionAltAnnotation("envoy-1")] != "2" {
		t.Errorf("versions = %v", next.Annotations)
	}
	if s := classify(next, tg, nil); !s.updated || s.consistent {
		t.Fatalf("phase 1 sent: %+v", s)
	}
	if out, _ := switchOver(next, tg, sidecars, now); out != nil {
		t.Fatal("no switch-over before envoy-2 runs its new image")
	}
	runAll(next, true)
	out, err := switchOver(next, tg, sidecars, now)
	if err != nil || out == nil {
		t.Fatalf("switch-over: %v, %v", out, err)
	}
	if image(out, "envoy-1") != "envoy:empty" || sidecarset.WorkingHotUpgradeContainers(out)["envoy"] != "envoy-2" {
		t.Errorf("after the switch: envoy-1 %s, working %v", image(out, "envoy-1"), sidecarset.WorkingHotUpgradeContainers(out))
	}
	if s := classify(out, tg, nil); s.consistent {
		t.Error("envoy-1 has not restarted with the empty image yet")
	}
	runAll(out, true)
	if s := classify(out, tg, nil); !s.updated || !s.consistent {
		t.Errorf("done: %+v", s)
	}

	// The next version goes to envoy-1, the idle one now.
	v3 := newSidecarSet("log:v1", true)
	v3.Spec.Containers[1].Image = "envoy:v3"
	again, err := upgrade(out, mustTarget(t, v3), sidecars, now)
	if err != nil {
		t.Fatal(err)
	}
	if image(again, "envoy-1") != "envoy:v3" || image(again, "envoy-2") != "envoy:v2" ||
		again.Annotations[pub.SidecarSetVersionAnnotation("envoy-1")] != "3" {
		t.Errorf("second upgrade: envoy-1 %s envoy-2 %s versions %v", image(again, "envoy-1"), image(again, "envoy-2"), again.Annotations)
	}
}

// Containers the SidecarSet did not inject into the pod (a name clash) are left alone.
func TestOnlyInjectedSidecarsChange(t *testing.T) {
	pod := injectedPod(t, "web-0", newSidecarSet("log:v1", false))
	next, err := upgrade(pod, mustTarget(t, newSidecarSet("log:v2", false)), map[string]bool{}, now)
	if err != nil {
		t.Fatal(err)
	}
	if image(next, "log") != "log:v1" {
		t.Error("a container the SidecarSet did not inject was changed")
	}
}
