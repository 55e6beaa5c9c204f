package resourcedistribution

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
)

// accessTTL is how long an answer is reused: the delegated authorizer's default, so
// that a right granted or revoked takes effect here as soon as in kruise-apiserver.
const accessTTL = 10 * time.Second

// maxCachedAnswers bounds the cache; past it, expired answers are dropped.
const maxCachedAnswers = 4096

// reviewer asks kube-apiserver, with SubjectAccessReviews, what a distribution's
// recorded user may do: kruise-controller has no request of that user to go by, only
// the user kruise-apiserver recorded (rdcontract.DistributorAnnotation). Answers are
// cached for accessTTL and concurrent identical questions share one review.
type reviewer struct {
	client kubernetes.Interface
	now    func() time.Time
	flight singleflight.Group
	mu     sync.Mutex
	cache  map[string]answer
}

type answer struct {
	allowed bool
	reason  string
	expires time.Time
}

func newReviewer(client kubernetes.Interface) *reviewer {
	return &reviewer{client: client, now: time.Now, cache: map[string]answer{}}
}

// For is the Access of one user.
func (r *reviewer) For(d rdcontract.Distributor) rdcontract.Access { return userAccess{r, d} }

type userAccess struct {
	r    *reviewer
	user rdcontract.Distributor
}

func (a userAccess) Allowed(ctx context.Context, c rdcontract.Check) (bool, string, error) {
	return a.r.allowed(ctx, a.user, c)
}

func (r *reviewer) allowed(ctx context.Context, u rdcontract.Distributor, c rdcontract.Check) (bool, string, error) {
	spec := authorizationv1.SubjectAccessReviewSpec{
		User: u.Username, UID: u.UID, Groups: u.Groups,
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Namespace: c.Namespace, Verb: c.Verb, Group: "", Version: "v1", Resource: c.Resource, Name: c.Name,
		},
	}
	if len(u.Extra) > 0 {
		spec.Extra = make(map[string]authorizationv1.ExtraValue, len(u.Extra))
		for k, v := range u.Extra {
			spec.Extra[k] = authorizationv1.ExtraValue(v)
		}
	}
	keyBytes, err := json.Marshal(spec) // map keys sorted: equal questions, equal keys
	if err != nil {
		return false, "", err
	}
	key := string(keyBytes)
	r.mu.Lock()
	if a, ok := r.cache[key]; ok && r.now().Before(a.expires) {
		r.mu.Unlock()
		return a.allowed, a.reason, nil
	}
	r.mu.Unlock()

	v, err, _ := r.flight.Do(key, func() (any, error) {
		sar, err := r.client.AuthorizationV1().SubjectAccessReviews().Create(ctx,
			&authorizationv1.SubjectAccessReview{Spec: spec}, metav1.CreateOptions{FieldManager: ControllerName})
		if err != nil {
			return nil, fmt.Errorf("SubjectAccessReview for %q: %w", u.Username, err)
		}
		reason := sar.Status.Reason
		if sar.Status.EvaluationError != "" && !sar.Status.Allowed && !sar.Status.Denied {
			// No authorizer decided and one failed: unknown, not denied.
			return nil, fmt.Errorf("SubjectAccessReview for %q: %s", u.Username, sar.Status.EvaluationError)
		}
		a := answer{allowed: sar.Status.Allowed, reason: reason, expires: r.now().Add(accessTTL)}
		r.store(key, a)
		return a, nil
	})
	if err != nil {
		return false, "", err
	}
	a := v.(answer)
	return a.allowed, a.reason, nil
}

func (r *reviewer) store(key string, a answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.cache) >= maxCachedAnswers {
		now := r.now()
		for k, old := range r.cache {
			if !now.Before(old.expires) {
				delete(r.cache, k)
			}
		}
	}
	if len(r.cache) < maxCachedAnswers {
		r.cache[key] = a
	}
}
