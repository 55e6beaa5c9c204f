package imagepuller

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// dockerConfigJSON is the content of a kubernetes.io/dockerconfigjson secret.
type dockerConfigJSON struct {
	Auths map[string]dockerConfigEntry `json:"auths"`
}

// dockerConfigEntry is one registry's credential in a docker config. Decoding
// matches keys case-insensitively, so "identityToken" is read too.
type dockerConfigEntry struct {
	Username      string `json:"username,omitempty"`
	Password      string `json:"password,omitempty"`
	Auth          string `json:"auth,omitempty"`
	IdentityToken string `json:"identitytoken,omitempty"`
	RegistryToken string `json:"registrytoken,omitempty"`
}

// AuthsFromSecrets returns the credentials of the pull secrets that apply to
// image, for PullImage to try in turn: secrets in the order given, and within
// one secret the most specific registry key first (a key with a repository
// path before the bare host, a literal host before a wildcard). Only
// kubernetes.io/dockerconfigjson and kubernetes.io/dockercfg secrets are read;
// a secret or entry that cannot be decoded is skipped rather than failing the
// pull, as the kubelet does, since another secret may still match. Identical
// credentials are returned once, so a failing one is not tried twice.
func AuthsFromSecrets(image string, secrets []*corev1.Secret) []*runtimeapi.AuthConfig {
	ref, err := ParseReference(image)
	if err != nil {
		return nil
	}
	var auths []*runtimeapi.AuthConfig
	seen := map[string]bool{}
	for _, secret := range secrets {
		for _, m := range matchingEntries(ref, dockerConfigOf(secret)) {
			auth, ok := m.entry.authConfig()
			if !ok {
				continue
			}
			id := strings.Join([]string{auth.Username, auth.Password, auth.IdentityToken, auth.RegistryToken}, "\x00")
			if seen[id] {
				continue
			}
			seen[id] = true
			auths = append(auths, auth)
		}
	}
	return auths
}

// dockerConfigOf returns the registry → credential map of a pull secret, or
// nil when the secret is of another type or malformed.
func dockerConfigOf(secret *corev1.Secret) map[string]dockerConfigEntry {
	if secret == nil {
		return nil
	}
	switch secret.Type {
	case corev1.SecretTypeDockerConfigJson:
		var cfg dockerConfigJSON
		if err := json.Unmarshal(secret.Data[corev1.DockerConfigJsonKey], &cfg); err != nil {
			return nil
		}
		return cfg.Auths
	case corev1.SecretTypeDockercfg:
		var cfg map[string]dockerConfigEntry
		if err := json.Unmarshal(secret.Data[corev1.DockerConfigKey], &cfg); err != nil {
			return nil
		}
		return cfg
	}
	return nil
}

type matchedEntry struct {
	key   registryKey
	entry dockerConfigEntry
}

// matchingEntries returns the entries of one docker config whose key matches
// ref, most specific first (the order is total, so it does not depend on map
// iteration).
func matchingEntries(ref Reference, cfg map[string]dockerConfigEntry) []matchedEntry {
	var out []matchedEntry
	for raw, entry := range cfg {
		key, ok := parseRegistryKey(raw)
		if !ok || !key.matches(ref) {
			continue
		}
		out = append(out, matchedEntry{key: key, entry: entry})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].key, out[j].key
		if len(a.path) != len(b.path) {
			return len(a.path) > len(b.path)
		}
		if a.wildcard() != b.wildcard() {
			return !a.wildcard()
		}
		return a.raw < b.raw
	})
	return out
}

// authConfig turns an entry into a CRI credential. The "auth" field, base64 of
// "user:password", wins over separate username/password fields (docker's
// rule). An entry with no credential at all is dropped: pulling with it is the
// same as pulling anonymously, which the runtime does when no secret matches.
//
// The credential carries no server address, as the kubelet's do: containerd reads
// that field as a URL and uses the credential only when its host is the registry's,
// so a bare "host:port" fails to parse and a bare "host" silently drops the
// credential. Empty, it applies to the registry being pulled from.
func (e dockerConfigEntry) authConfig() (*runtimeapi.AuthConfig, bool) {
	user, pass := e.Username, e.Password
	if e.Auth != "" {
		decoded, err := decodeBase64(e.Auth)
		if err != nil {
			return nil, false
		}
		u, p, ok := strings.Cut(string(decoded), ":")
		if !ok {
			return nil, false
		}
		user, pass = u, p
	}
	if user == "" && pass == "" && e.IdentityToken == "" && e.RegistryToken == "" {
		return nil, false
	}
	return &runtimeapi.AuthConfig{
		Username:      user,
		Password:      pass,
		IdentityToken: e.IdentityToken,
		RegistryToken: e.RegistryToken,
	}, true
}

// decodeBase64 accepts padded and unpadded standard base64: both are found in
// hand-written docker configs.
func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}
