package fakecri

import (
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// PullBehavior is how pulls of matching images behave. The zero value is a pull that
// succeeds at once.
type PullBehavior struct {
	// Latency is how long each attempt takes before it succeeds or fails. The caller's
	// context (a gRPC deadline, a cancellation) ends it early with that context's error.
	Latency time.Duration
	// NotFound: the image does not exist in the registry. Every attempt fails with
	// codes.NotFound and containerd's "not found" message.
	NotFound bool
	// Message, when set, makes attempts fail with it, in containerd's wrapping:
	// `failed to pull and unpack image "<ref>": <Message>`. Code is the gRPC code
	// (codes.Unknown, containerd's usual one, when unset).
	Message string
	Code    codes.Code
	// FailFirst > 0 fails only the first FailFirst attempts of each reference (with
	// Message, or a connection reset when Message is empty) and lets later ones succeed.
	FailFirst int
	// Credentials, when set, makes the image private: attempts that do not carry this
	// username and password fail as containerd reports a registry refusing them.
	Credentials *Credentials
}

// Credentials are the username and password a private image's registry accepts.
type Credentials struct {
	Username, Password string
}

// unauthorizedMessage is containerd's answer when a registry refuses the credentials
// sent, or their absence.
const unauthorizedMessage = `failed to resolve reference: pull access denied, repository does not exist or may require authorization: ` +
	`server message: insufficient_scope: authorization failed`

func (c *Credentials) accept(a *runtimeapi.AuthConfig) bool {
	return a != nil && a.GetUsername() == c.Username && a.GetPassword() == c.Password
}

// defaultTransientMessage is what a fail-first attempt says when no Message is given:
// the kind of error a registry hiccup gives.
const defaultTransientMessage = `failed to copy: httpReadSeeker: failed open: failed to do request: ` +
	`Get "https://registry-1.docker.io/v2/": read tcp 10.0.0.1:41234->104.18.121.25:443: read: connection reset by peer`

// pullRule is a PullBehavior for a pattern, with the attempts it has counted per
// normalized reference (FailFirst counts per reference).
type pullRule struct {
	pattern  string
	glob     bool
	behavior PullBehavior
	attempts map[string]int
}

type pullConfig struct {
	rules []*pullRule
	// registry, when non-nil, lists the patterns of the images that exist; others are
	// not found. nil: every image exists.
	registry []string
}

// SetPullBehavior sets how pulls of images matching pattern behave, replacing an earlier
// behaviour for the same pattern (and its attempt counts). The pattern is either an image
// reference, matched after normalization ("nginx:1.9" matches a pull of
// "docker.io/library/nginx:1.9"), or a glob where '*' matches any run of characters
// (including '/') and '?' one character, matched against both the reference as pulled
// and its normalized form ("*/nginx:*", "docker.io/library/busybox*"). An exact match
// wins over globs; among globs the one set last wins.
func (s *Server) SetPullBehavior(pattern string, b PullBehavior) {
	rule := &pullRule{pattern: pattern, behavior: b, attempts: map[string]int{}}
	if strings.ContainsAny(pattern, "*?") {
		rule.glob = true
	} else if ref, err := NormalizeImageRef(pattern); err == nil {
		rule.pattern = ref
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rules := s.pulls.rules[:0]
	for _, r := range s.pulls.rules {
		if r.pattern != rule.pattern {
			rules = append(rules, r)
		}
	}
	s.pulls.rules = append(rules, rule)
}

// ClearPullBehaviors forgets every PullBehavior: pulls succeed at once again.
func (s *Server) ClearPullBehaviors() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pulls.rules = nil
}

// SetRegistryImages makes the registry hold only images matching one of patterns (same
// forms as SetPullBehavior); pulls of any other image fail with NotFound. nil restores
// the default: every image exists.
func (s *Server) SetRegistryImages(patterns []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if patterns == nil {
		s.pulls.registry = nil
		return
	}
	s.pulls.registry = make([]string, 0, len(patterns))
	for _, p := range patterns {
		if !strings.ContainsAny(p, "*?") {
			if ref, err := NormalizeImageRef(p); err == nil {
				p = ref
			}
		}
		s.pulls.registry = append(s.pulls.registry, p)
	}
}

// pullPlan is what one attempt will do, decided under the lock when it starts.
type pullPlan struct {
	latency time.Duration
	err     error
}

// planPull counts the attempt and decides its outcome; the caller holds s.mu.
func (c *pullConfig) planPull(requested, ref string, auth *runtimeapi.AuthConfig) pullPlan {
	rule := c.match(requested, ref)
	var plan pullPlan
	if c.registry != nil && !matchesAny(c.registry, requested, ref) {
		plan.err = notFoundError(ref)
	}
	if rule == nil {
		return plan
	}
	b := rule.behavior
	rule.attempts[ref]++
	attempt := rule.attempts[ref]
	plan.latency = b.Latency
	switch {
	case plan.err != nil:
	case b.NotFound:
		plan.err = notFoundError(ref)
	case b.Credentials != nil && !b.Credentials.accept(auth):
		plan.err = pullError(codes.Unknown, ref, unauthorizedMessage)
	case b.FailFirst > 0:
		if attempt <= b.FailFirst {
			msg := b.Message
			if msg == "" {
				msg = defaultTransientMessage
			}
			plan.err = pullError(b.Code, ref, msg)
		}
	case b.Message != "":
		plan.err = pullError(b.Code, ref, b.Message)
	}
	return plan
}

func (c *pullConfig) match(requested, ref string) *pullRule {
	var found *pullRule
	for _, r := range c.rules {
		if !r.glob && r.pattern == ref {
			return r
		}
		if r.glob && (globMatch(r.pattern, requested) || globMatch(r.pattern, ref)) {
			found = r // the last one set wins
		}
	}
	return found
}

func matchesAny(patterns []string, requested, ref string) bool {
	for _, p := range patterns {
		if p == ref || globMatch(p, requested) || globMatch(p, ref) {
			return true
		}
	}
	return false
}

// notFoundError is containerd's answer for a reference the registry does not know.
func notFoundError(ref string) error {
	return status.Errorf(codes.NotFound, "failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", ref, ref, ref)
}

func pullError(code codes.Code, ref, msg string) error {
	if code == codes.OK {
		code = codes.Unknown
	}
	return status.Error(code, fmt.Sprintf("failed to pull and unpack image %q: %s", ref, msg))
}

// globMatch matches s against pattern where '*' is any run of characters (unlike
// path.Match, also across '/', so "*nginx*" matches a fully qualified reference) and '?'
// is one character.
func globMatch(pattern, s string) bool {
	// Classic two-pointer wildcard matching with backtracking to the last '*'.
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
