// Package authzflight shares one authorization decision among concurrent identical
// requests.
//
// kruise-apiserver authorizes every request, the Pod webhook's calls from
// kube-apiserver included, by delegated authorization: a SubjectAccessReview to
// kube-apiserver whose answer is cached for 10 s. That cache does not coalesce misses:
// when an entry expires under load, every request then in flight with the same
// attributes sends its own SubjectAccessReview, to the kube-apiserver that is itself
// waiting on those webhook calls. Wrapping the authorizer here makes concurrent
// identical decisions one SubjectAccessReview. Nothing is cached here: a decision,
// allow, deny or error, is shared only with the requests that asked while it was being
// made; the delegated authorizer's own cache still decides what is remembered.
package authzflight

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"golang.org/x/sync/singleflight"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

// Authorizer coalesces concurrent identical Authorize calls to Inner.
type Authorizer struct {
	inner  authorizer.Authorizer
	flight singleflight.Group
	// joined, when set (tests), is called once a call has joined or started a flight.
	joined func()
}

// New wraps inner.
func New(inner authorizer.Authorizer) *Authorizer {
	return &Authorizer{inner: inner}
}

type result struct {
	decision authorizer.Decision
	reason   string
	err      error
}

// Authorize asks inner once for all concurrent calls with the same key. A caller whose
// context ends stops waiting; the shared call goes on for the others, under the first
// caller's context values but not its cancellation (so one cancelled request does not
// fail every request that joined it; the delegated authorizer's client timeout bounds it).
func (a *Authorizer) Authorize(ctx context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	k, ok := key(attrs)
	if !ok {
		return a.inner.Authorize(ctx, attrs)
	}
	ch := a.flight.DoChan(k, func() (any, error) {
		d, reason, err := a.inner.Authorize(context.WithoutCancel(ctx), attrs)
		return result{d, reason, err}, nil
	})
	if a.joined != nil {
		a.joined()
	}
	select {
	case r := <-ch:
		res := r.Val.(result)
		return res.decision, res.reason, res.err
	case <-ctx.Done():
		return authorizer.DecisionNoOpinion, "", fmt.Errorf("waiting for a shared authorization decision: %w", ctx.Err())
	}
}

// keyFields are every attribute an authorizer may look at (the SubjectAccessReview the
// delegated authorizer sends is built from these). Two requests coalesce only when
// all of them are equal.
type keyFields struct {
	User        string              `json:"u"`
	UID         string              `json:"id"`
	Groups      []string            `json:"g"`
	Extra       map[string][]string `json:"x"`
	Resource    bool                `json:"rr"`
	Verb        string              `json:"v"`
	Namespace   string              `json:"ns"`
	APIGroup    string              `json:"ag"`
	APIVersion  string              `json:"av"`
	Kind        string              `json:"r"`
	Subresource string              `json:"sr"`
	Name        string              `json:"n"`
	Path        string              `json:"p"`
	Fields      string              `json:"fs"`
	Labels      string              `json:"ls"`
}

// key is the coalescing key of attrs; false when the request must not be coalesced
// (no user, or selectors that do not parse: let the inner authorizer judge it alone).
func key(attrs authorizer.Attributes) (string, bool) {
	u := attrs.GetUser()
	if u == nil {
		return "", false
	}
	k := keyFields{
		User: u.GetName(), UID: u.GetUID(), Groups: u.GetGroups(), Extra: u.GetExtra(),
		Resource: attrs.IsResourceRequest(), Verb: attrs.GetVerb(), Namespace: attrs.GetNamespace(),
		APIGroup: attrs.GetAPIGroup(), APIVersion: attrs.GetAPIVersion(), Kind: attrs.GetResource(),
		Subresource: attrs.GetSubresource(), Name: attrs.GetName(), Path: attrs.GetPath(),
	}
	if k.Resource {
		fs, err := attrs.GetFieldSelector()
		if err != nil {
			return "", false
		}
		ls, err := attrs.GetLabelSelector()
		if err != nil {
			return "", false
		}
		for _, r := range fs {
			k.Fields += r.Field + "\x00" + string(r.Operator) + "\x00" + r.Value + "\x01"
		}
		for _, r := range ls {
			vals := r.ValuesUnsorted()
			slices.Sort(vals)
			k.Labels += fmt.Sprintf("%q%q%q\x01", r.Key(), r.Operator(), vals)
		}
	}
	b, err := json.Marshal(k) // map keys are sorted: equal Extra, equal bytes
	if err != nil {
		return "", false
	}
	return string(b), true
}
