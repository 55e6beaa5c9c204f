package sidecarset

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
)

// The hashes are OpenKruise's values for the same SidecarSet (the expected strings are
// those of its pkg/control/sidecarcontrol hash tests), so a pod injected by OpenKruise
// before a migration reads as up to date, and one injected here reads the same to
// tools that compare them. Native sidecars (init containers with restartPolicy Always)
// count; plain init containers do not.
func TestHashesAreOpenKruises(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	c1 := apps.SidecarContainer{Container: corev1.Container{Name: "container1", Image: "test-image"}}
	native := apps.SidecarContainer{Container: corev1.Container{Name: "container1", Image: "test-image", RestartPolicy: &always}}
	cases := []struct {
		name                   string
		init                   []apps.SidecarContainer
		hash, hashWithoutImage string
	}{
		{name: "containers", hash: "w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78"},
		{name: "containers and a plain init container", init: []apps.SidecarContainer{c1},
			hash: "w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78"},
		{name: "containers and a native sidecar", init: []apps.SidecarContainer{native},
			hash:             "4xwx4d4844vd4v9x79wb4xbxf4xb29475cc4446v8cz2c2f2f5c5bw448vd42z8w",
			hashWithoutImage: "5725fw8bwbx249bw57v5892c847dzf48bww9zb7c86xb95264fdz26654847b2c8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "test-sidecar-set"},
				Spec: apps.SidecarSetSpec{Containers: []apps.SidecarContainer{c1}, InitContainers: c.init}}
			h, err := Hash(ss)
			if err != nil || h != c.hash {
				t.Errorf("Hash = %s, %v; want %s", h, err, c.hash)
			}
			if c.hashWithoutImage != "" {
				if w, err := HashWithoutImage(ss); err != nil || w != c.hashWithoutImage {
					t.Errorf("HashWithoutImage = %s, %v; want %s", w, err, c.hashWithoutImage)
				}
			}
		})
	}
}

// A change to a native sidecar changes the hash (the pod shows as not updated); its
// image alone leaves the hash without image as it is, as for containers.
func TestNativeSidecarHash(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	ss := newSidecarSet()
	ss.Spec.InitContainers = []apps.SidecarContainer{
		{Container: corev1.Container{Name: "proxy", Image: "proxy:v1", RestartPolicy: &always}},
		{Container: corev1.Container{Name: "setup", Image: "setup:v1"}},
	}
	h0, _ := Hash(ss)
	w0, _ := HashWithoutImage(ss)
	ss.Spec.InitContainers[0].Image = "proxy:v2"
	if h, _ := Hash(ss); h == h0 {
		t.Error("a native sidecar's image change must change the hash")
	}
	if w, _ := HashWithoutImage(ss); w != w0 {
		t.Error("a native sidecar's image change must leave the hash without image")
	}
	ss.Spec.InitContainers[0].Args = []string{"--v"}
	if w, _ := HashWithoutImage(ss); w == w0 {
		t.Error("a native sidecar's args change must change the hash without image")
	}
	plain := newSidecarSet()
	plain.Spec.InitContainers = []apps.SidecarContainer{{Container: corev1.Container{Name: "setup", Image: "setup:v1"}}}
	p0, _ := Hash(plain)
	plain.Spec.InitContainers[0].Image = "setup:v2"
	if p, _ := Hash(plain); p != p0 {
		t.Error("a plain init container runs once at creation: it must not count")
	}
}

// SidecarList is what OpenKruise records: the native sidecars and the containers, by name.
func TestSidecarList(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	ss := newSidecarSet()
	ss.Spec.Containers = append(ss.Spec.Containers, apps.SidecarContainer{Container: corev1.Container{Name: "envoy"}})
	ss.Spec.InitContainers = []apps.SidecarContainer{
		{Container: corev1.Container{Name: "proxy", RestartPolicy: &always}},
		{Container: corev1.Container{Name: "setup"}},
	}
	if got := SidecarList(ss); len(got) != 3 || got[0] != "envoy" || got[1] != "log" || got[2] != "proxy" {
		t.Errorf("SidecarList = %v, want [envoy log proxy]", got)
	}
}

// A pod annotated by an OpenKruise older than v0.9 maps names to bare hashes; it reads
// as hashes still.
func TestOlderHashAnnotation(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{pub.SidecarSetHashAnnotation: `{"log":"abc"}`}}}
	if s := UpgradeSpecs(pod, pub.SidecarSetHashAnnotation)["log"]; s.Hash != "abc" || s.SidecarSetName != "log" {
		t.Errorf("spec = %+v, want hash abc", s)
	}
}
