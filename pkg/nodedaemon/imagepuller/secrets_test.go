package imagepuller

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	corev1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// configJSONSecret is a kubernetes.io/dockerconfigjson secret with one
// credential per registry key.
func configJSONSecret(t *testing.T, name string, auths map[string]dockerConfigEntry) *corev1.Secret {
	t.Helper()
	data, err := json.Marshal(dockerConfigJSON{Auths: auths})
	if err != nil {
		t.Fatal(err)
	}
	s := &corev1.Secret{Type: corev1.SecretTypeDockerConfigJson, Data: map[string][]byte{corev1.DockerConfigJsonKey: data}}
	s.Name = name
	return s
}

func cfgSecret(t *testing.T, name string, auths map[string]dockerConfigEntry) *corev1.Secret {
	t.Helper()
	data, err := json.Marshal(auths)
	if err != nil {
		t.Fatal(err)
	}
	s := &corev1.Secret{Type: corev1.SecretTypeDockercfg, Data: map[string][]byte{corev1.DockerConfigKey: data}}
	s.Name = name
	return s
}

func basic(user, pass string) dockerConfigEntry {
	return dockerConfigEntry{Auth: b64(user + ":" + pass)}
}

// cred is the credential expected for registry (named for the reader only: the
// credential itself carries no server address, see authConfig).
func cred(registry, user, pass string) *runtimeapi.AuthConfig {
	_ = registry
	return &runtimeapi.AuthConfig{Username: user, Password: pass}
}

func TestAuthsFromSecrets(t *testing.T) {
	cases := []struct {
		name    string
		image   string
		secrets func(t *testing.T) []*corev1.Secret
		want    []*runtimeapi.AuthConfig
	}{{
		name:  "docker hub default key matches a short name",
		image: "nginx:1.9.1",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{configJSONSecret(t, "hub", map[string]dockerConfigEntry{
				"https://index.docker.io/v1/": basic("u", "p"),
			})}
		},
		want: []*runtimeapi.AuthConfig{cred("index.docker.io", "u", "p")},
	}, {
		name:  "every docker hub alias matches docker.io images",
		image: "docker.io/team/app:1",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{
				configJSONSecret(t, "a", map[string]dockerConfigEntry{"docker.io": basic("a", "1")}),
				configJSONSecret(t, "b", map[string]dockerConfigEntry{"registry-1.docker.io": basic("b", "2")}),
				configJSONSecret(t, "c", map[string]dockerConfigEntry{"index.docker.io": basic("c", "3")}),
				configJSONSecret(t, "d", map[string]dockerConfigEntry{"quay.io": basic("d", "4")}),
			}
		},
		want: []*runtimeapi.AuthConfig{cred("docker.io", "a", "1"), cred("registry-1.docker.io", "b", "2"), cred("index.docker.io", "c", "3")},
	}, {
		name:  "secret order is kept; within a secret the most specific key comes first",
		image: "reg.example.com/team/app:v1",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{
				configJSONSecret(t, "first", map[string]dockerConfigEntry{
					"*.example.com":           basic("wild", "w"),
					"reg.example.com":         basic("host", "h"),
					"reg.example.com/team":    basic("team", "t"),
					"reg.example.com/other":   basic("other", "o"),
					"https://reg.example.com": basic("host", "h"), // same credential again
				}),
				cfgSecret(t, "second", map[string]dockerConfigEntry{
					"reg.example.com": {Username: "legacy", Password: "l"},
				}),
			}
		},
		want: []*runtimeapi.AuthConfig{
			cred("reg.example.com", "team", "t"),
			cred("reg.example.com", "host", "h"),
			cred("*.example.com", "wild", "w"),
			cred("reg.example.com", "legacy", "l"),
		},
	}, {
		name:  "ports must agree",
		image: "reg.example.com:5000/app",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{configJSONSecret(t, "s", map[string]dockerConfigEntry{
				"reg.example.com":      basic("noport", "x"),
				"reg.example.com:5001": basic("otherport", "x"),
				"reg.example.com:5000": basic("port", "x"),
			})}
		},
		want: []*runtimeapi.AuthConfig{cred("reg.example.com:5000", "port", "x")},
	}, {
		name:  "a wildcard covers one label only, and hosts are case-insensitive",
		image: "A.b.Example.com/app",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{configJSONSecret(t, "s", map[string]dockerConfigEntry{
				"*.example.com":   basic("one", "x"),
				"*.b.example.com": basic("two", "x"),
			})}
		},
		want: []*runtimeapi.AuthConfig{cred("*.b.example.com", "two", "x")},
	}, {
		name:  "a path prefix matches whole components only",
		image: "reg.io/teamx/app",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{configJSONSecret(t, "s", map[string]dockerConfigEntry{
				"reg.io/team":   basic("team", "x"),
				"reg.io/teamx/": basic("teamx", "x"),
			})}
		},
		want: []*runtimeapi.AuthConfig{cred("reg.io", "teamx", "x")},
	}, {
		name:  "username/password fields, tokens, and auth winning over the fields",
		image: "reg.io/app",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{
				configJSONSecret(t, "fields", map[string]dockerConfigEntry{"reg.io": {Username: "u", Password: "p:with:colons"}}),
				configJSONSecret(t, "auth-wins", map[string]dockerConfigEntry{"reg.io": {Username: "ignored", Password: "ignored", Auth: b64("a:b:c")}}),
				configJSONSecret(t, "token", map[string]dockerConfigEntry{"reg.io": {IdentityToken: "id-tok"}}),
				configJSONSecret(t, "registry-token", map[string]dockerConfigEntry{"reg.io": {RegistryToken: "reg-tok"}}),
				configJSONSecret(t, "unpadded", map[string]dockerConfigEntry{"reg.io": {Auth: base64.RawStdEncoding.EncodeToString([]byte("x:y1"))}}),
			}
		},
		want: []*runtimeapi.AuthConfig{
			cred("reg.io", "u", "p:with:colons"),
			cred("reg.io", "a", "b:c"),
			{IdentityToken: "id-tok"},
			{RegistryToken: "reg-tok"},
			cred("reg.io", "x", "y1"),
		},
	}, {
		name:  "broken, empty, foreign and mistyped secrets are skipped",
		image: "reg.io/app",
		secrets: func(t *testing.T) []*corev1.Secret {
			opaque := configJSONSecret(t, "opaque", map[string]dockerConfigEntry{"reg.io": basic("opaque", "x")})
			opaque.Type = corev1.SecretTypeOpaque
			wrongKey := configJSONSecret(t, "wrong-key", map[string]dockerConfigEntry{"reg.io": basic("wrongkey", "x")})
			wrongKey.Data = map[string][]byte{corev1.DockerConfigKey: wrongKey.Data[corev1.DockerConfigJsonKey]}
			garbage := &corev1.Secret{Type: corev1.SecretTypeDockerConfigJson, Data: map[string][]byte{corev1.DockerConfigJsonKey: []byte("{not json")}}
			return []*corev1.Secret{
				nil,
				opaque,
				wrongKey,
				garbage,
				configJSONSecret(t, "bad-base64", map[string]dockerConfigEntry{"reg.io": {Auth: "%%%"}}),
				configJSONSecret(t, "no-colon", map[string]dockerConfigEntry{"reg.io": {Auth: b64("nocolon")}}),
				configJSONSecret(t, "empty", map[string]dockerConfigEntry{"reg.io": {}}),
				configJSONSecret(t, "good", map[string]dockerConfigEntry{"reg.io": basic("good", "x"), "": basic("nohost", "x")}),
			}
		},
		want: []*runtimeapi.AuthConfig{cred("reg.io", "good", "x")},
	}, {
		name:  "no match",
		image: "quay.io/app",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{configJSONSecret(t, "hub", map[string]dockerConfigEntry{"https://index.docker.io/v1/": basic("u", "p")})}
		},
	}, {
		name:  "invalid image",
		image: "Not A Reference",
		secrets: func(t *testing.T) []*corev1.Secret {
			return []*corev1.Secret{configJSONSecret(t, "s", map[string]dockerConfigEntry{"docker.io": basic("u", "p")})}
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := AuthsFromSecrets(tc.image, tc.secrets(t))
			if diff := cmp.Diff(tc.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("AuthsFromSecrets(%q) (-want +got):\n%s", tc.image, diff)
			}
		})
	}
}

func TestAuthsFromSecretsDeterministic(t *testing.T) {
	// Map iteration order must not leak into the result.
	entries := map[string]dockerConfigEntry{}
	for _, k := range []string{"reg.io", "https://reg.io", "http://reg.io/", "reg.io/v2/", "*.io"} {
		entries[k] = basic(k, "x")
	}
	secrets := []*corev1.Secret{configJSONSecret(t, "s", entries)}
	first := AuthsFromSecrets("reg.io/app", secrets)
	if len(first) != len(entries) {
		t.Fatalf("got %d credentials, want %d", len(first), len(entries))
	}
	for i := 0; i < 20; i++ {
		if diff := cmp.Diff(first, AuthsFromSecrets("reg.io/app", secrets), protocmp.Transform()); diff != "" {
			t.Fatalf("order changed between calls (-first +now):\n%s", diff)
		}
	}
}
