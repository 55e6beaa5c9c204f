package imagepuller

import (
	"path"
	"strings"
)

// dockerHubHosts are the names under which docker configs store Docker Hub
// credentials; all of them apply to images that resolve to docker.io.
var dockerHubHosts = map[string]bool{
	"docker.io":            true,
	"index.docker.io":      true,
	"registry-1.docker.io": true,
}

// registryKey is a parsed docker config key: "https://index.docker.io/v1/",
// "registry.example.com:5000", "*.example.com/team".
type registryKey struct {
	raw     string
	rawHost string   // host[:port] as written, sent as the credential's server address
	host    string   // lower-cased host without port, docker.io for Docker Hub aliases
	port    string   // empty when the key has none
	path    []string // repository prefix the key is limited to
}

func parseRegistryKey(raw string) (registryKey, bool) {
	k := registryKey{raw: raw}
	s := strings.TrimSpace(raw)
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	hostPort, rest, _ := strings.Cut(s, "/")
	if hostPort == "" {
		return registryKey{}, false
	}
	k.rawHost = hostPort
	k.host, k.port = splitHostPort(strings.ToLower(hostPort))
	if dockerHubHosts[k.host] {
		k.host = defaultDomain
	}
	for _, c := range strings.Split(strings.Trim(rest, "/"), "/") {
		if c != "" {
			k.path = append(k.path, c)
		}
	}
	// "/v1/" and "/v2/" name the registry API version (docker's own key is
	// "https://index.docker.io/v1/"), not a repository prefix.
	if len(k.path) == 1 && (k.path[0] == "v1" || k.path[0] == "v2") {
		k.path = nil
	}
	return k, true
}

func (k registryKey) wildcard() bool {
	return strings.Contains(k.host, "*")
}

// matches says whether the key's credential applies to ref: same host (each
// dot-separated label may be a glob, "*.example.com"), same port (none on
// both, or equal), and the key's path, if any, is a prefix of the
// repository's path in whole components.
func (k registryKey) matches(ref Reference) bool {
	host, port := splitHostPort(strings.ToLower(ref.Domain))
	if port != k.port || !globHost(k.host, host) {
		return false
	}
	repo := strings.Split(ref.Path, "/")
	if len(k.path) > len(repo) {
		return false
	}
	for i, c := range k.path {
		if c != repo[i] {
			return false
		}
	}
	return true
}

// globHost matches host labels one to one, so "*.example.com" matches
// "a.example.com" but neither "example.com" nor "a.b.example.com".
func globHost(pattern, host string) bool {
	if pattern == host {
		return true
	}
	if !strings.Contains(pattern, "*") {
		return false
	}
	pl, hl := strings.Split(pattern, "."), strings.Split(host, ".")
	if len(pl) != len(hl) {
		return false
	}
	for i := range pl {
		if ok, err := path.Match(pl[i], hl[i]); err != nil || !ok {
			return false
		}
	}
	return true
}

// splitHostPort splits "host:port"; a bracketed IPv6 address keeps its
// colons.
func splitHostPort(hostPort string) (host, port string) {
	i := strings.LastIndexByte(hostPort, ':')
	if i < 0 || strings.LastIndexByte(hostPort, ']') > i {
		return hostPort, ""
	}
	return hostPort[:i], hostPort[i+1:]
}
