package resourcedistribution

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"
)

// A distribution writes Secrets and ConfigMaps into namespaces where the user who
// wrote it may have no rights at all: without a check, permission to create
// ResourceDistributions would be permission to write any Secret anywhere. So its
// copies are written on behalf of a user (the Distributor) who must be allowed to
// write them there themselves:
//
//   - kruise-apiserver's admission asks, when a distribution is created or its spec
//     changes, for every namespace it targets at that moment (VerbsOnCreate,
//     VerbsOnUpdate), through its delegated authorizer;
//   - kruise-controller asks before it creates a copy, for the recorded user, so a
//     namespace that starts to match later is checked too (SubjectAccessReview).
//
// Both ask through Forbidden, with their own Access.

// VerbsOnCreate are what the user must be allowed on the copies' resource in every
// target when a distribution is created: its copies are new objects.
var VerbsOnCreate = []string{"create"}

// VerbsOnUpdate are what the user must be allowed when a spec changes: copies that
// exist are rewritten, new targets get new copies.
var VerbsOnUpdate = []string{"create", "update"}

// Check is one question: may the distributor do Verb on Resource (configmaps or
// secrets, core group) in Namespace ("" asks for every namespace at once) and, for
// verbs on an existing object, with Name.
type Check struct {
	Verb, Resource, Namespace, Name string
}

// Access answers a Check for one user: allowed, or why not (which may be empty).
type Access interface {
	Allowed(ctx context.Context, c Check) (allowed bool, reason string, err error)
}

// ResourceOf is the API resource of a distributed kind.
func ResourceOf(kind string) string {
	if kind == KindSecret {
		return "secrets"
	}
	return "configmaps"
}

// maxConcurrentChecks bounds the questions in flight for one distribution: an
// allNamespaces distribution of a user allowed namespace by namespace asks once per
// namespace (each answer cached by the asker).
const maxConcurrentChecks = 8

// Forbidden returns the namespaces among nss where access does not allow every verb on
// res's copies, each with the reason. For each verb it asks once for all namespaces
// first: a user allowed cluster-wide (a ClusterRoleBinding) costs one question, not one
// per namespace. An error means some answer is unknown: the caller must not treat
// the unanswered namespaces as allowed.
func Forbidden(ctx context.Context, access Access, res *Resource, verbs []string, nss []string) (map[string]string, error) {
	resource := ResourceOf(res.Kind())
	denied := map[string]string{}
	var mu sync.Mutex
	for _, verb := range verbs {
		c := Check{Verb: verb, Resource: resource}
		if verb != "create" {
			c.Name = res.Meta().Name // create requests carry no name; RBAC's resourceNames never match them
		}
		everywhere, _, err := access.Allowed(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("asking whether %s is allowed in every namespace: %w", verb, err)
		}
		if everywhere {
			continue
		}
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(maxConcurrentChecks)
		for _, ns := range nss {
			mu.Lock()
			_, already := denied[ns]
			mu.Unlock()
			if already {
				continue
			}
			g.Go(func() error {
				c := c
				c.Namespace = ns
				ok, reason, err := access.Allowed(gctx, c)
				if err != nil {
					return fmt.Errorf("asking whether %s of %s is allowed in namespace %s: %w", verb, resource, ns, err)
				}
				if !ok {
					msg := fmt.Sprintf("may not %s %s", verb, resource)
					if reason != "" {
						msg += ": " + reason
					}
					mu.Lock()
					denied[ns] = msg
					mu.Unlock()
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
	}
	return denied, nil
}

// DescribeForbidden is one line naming the denied namespaces, sorted, with the first
// one's reason.
func DescribeForbidden(denied map[string]string) string {
	nss := make([]string, 0, len(denied))
	for ns := range denied {
		nss = append(nss, ns)
	}
	sort.Strings(nss)
	return fmt.Sprintf("namespace(s) %s (%s: %s)", strings.Join(nss, ", "), nss[0], denied[nss[0]])
}
