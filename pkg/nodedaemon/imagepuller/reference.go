package imagepuller

import (
	"fmt"
	"regexp"
	"strings"
)

// Docker Hub is the registry of references that name none, and "library" the
// namespace of its official images; the same defaults every runtime applies,
// so a credential for docker.io matches "nginx".
const (
	defaultDomain    = "docker.io"
	legacyDomain     = "index.docker.io"
	officialRepoPath = "library"
	defaultTag       = "latest"
	maxNameLength    = 255
)

var (
	// One path component: lower-case alphanumerics joined by '.', '_', "__"
	// or runs of '-' (the distribution reference grammar).
	pathComponentRE = regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$`)
	// A host name or IPv4 address, or a bracketed IPv6 address, with an
	// optional port.
	domainRE = regexp.MustCompile(`^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?$`)
	tagRE    = regexp.MustCompile(`^[\w][\w.-]{0,127}$`)
	digestRE = regexp.MustCompile(`^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$`)
	sha256RE = regexp.MustCompile(`^sha256:[a-f0-9]{64}$`)
)

// Reference is an image reference split into its parts, with Docker Hub's
// defaults applied to Domain and Path (Tag and Digest are left as given).
type Reference struct {
	// Domain is the registry host, with its port if any ("docker.io",
	// "registry.example.com:5000").
	Domain string
	// Path is the repository inside the registry ("library/nginx").
	Path string
	// Tag is empty when the reference has none.
	Tag string
	// Digest ("sha256:...") is empty when the reference has none.
	Digest string
}

// Repository is the fully qualified repository: domain/path.
func (r Reference) Repository() string {
	return r.Domain + "/" + r.Path
}

// String is the fully qualified reference: repository[:tag][@digest].
func (r Reference) String() string {
	s := r.Repository()
	if r.Tag != "" {
		s += ":" + r.Tag
	}
	if r.Digest != "" {
		s += "@" + r.Digest
	}
	return s
}

// ParseReference splits an image reference ("nginx:1.9.1",
// "registry:5000/team/app@sha256:...") into its parts and qualifies the
// repository the way container runtimes do: no registry means docker.io, and a
// single-component Docker Hub path lives under library/.
func ParseReference(ref string) (Reference, error) {
	if ref == "" {
		return Reference{}, fmt.Errorf("empty image reference")
	}
	var r Reference
	name := ref
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name, r.Digest = name[:i], name[i+1:]
		if !digestRE.MatchString(r.Digest) || (strings.HasPrefix(r.Digest, "sha256:") && !sha256RE.MatchString(r.Digest)) {
			return Reference{}, fmt.Errorf("invalid digest %q in image reference %q", r.Digest, ref)
		}
	}
	// A ':' after the last '/' starts the tag; one before it is a port.
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name, r.Tag = name[:i], name[i+1:]
		if !tagRE.MatchString(r.Tag) {
			return Reference{}, fmt.Errorf("invalid tag %q in image reference %q", r.Tag, ref)
		}
	}
	if name == "" {
		return Reference{}, fmt.Errorf("image reference %q has no repository", ref)
	}
	if len(name) > maxNameLength {
		return Reference{}, fmt.Errorf("repository name of image reference %q is longer than %d characters", ref, maxNameLength)
	}
	r.Domain, r.Path = splitDomain(name)
	if !domainRE.MatchString(r.Domain) {
		return Reference{}, fmt.Errorf("invalid registry %q in image reference %q", r.Domain, ref)
	}
	for _, c := range strings.Split(r.Path, "/") {
		if !pathComponentRE.MatchString(c) {
			return Reference{}, fmt.Errorf("invalid repository path component %q in image reference %q (lower-case letters, digits and separators only)", c, ref)
		}
	}
	return r, nil
}

// splitDomain tells a registry host from a first path component: it is a host
// when it has a '.' or a port, or is "localhost"; Docker Hub's aliases fold
// into docker.io.
func splitDomain(name string) (domain, path string) {
	i := strings.IndexByte(name, '/')
	if i < 0 || (!strings.ContainsAny(name[:i], ".:") && name[:i] != "localhost" && strings.ToLower(name[:i]) == name[:i]) {
		domain, path = defaultDomain, name
	} else {
		domain, path = name[:i], name[i+1:]
	}
	if domain == legacyDomain {
		domain = defaultDomain
	}
	if domain == defaultDomain && !strings.ContainsRune(path, '/') {
		path = officialRepoPath + "/" + path
	}
	return domain, path
}

// NormalizeReference returns the fully qualified form of an image reference,
// "nginx:1.9.1" → "docker.io/library/nginx:1.9.1", with tag "latest" when the
// reference has neither tag nor digest (what a runtime would pull).
func NormalizeReference(ref string) (string, error) {
	r, err := ParseReference(ref)
	if err != nil {
		return "", err
	}
	if r.Tag == "" && r.Digest == "" {
		r.Tag = defaultTag
	}
	return r.String(), nil
}
