// Package apibench compares kruise-apiserver with the same kind served as a CRD by
// kube-apiserver: creates, gets, lists (JSON and protobuf) and watches of CloneSets,
// both reached through kube-apiserver as a user reaches them.
package apibench

import (
	"context"
	"fmt"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// Options size the API benchmark.
type Options struct {
	Objects     int // CloneSets created (5000)
	Clients     int // concurrent clients for creates, gets and watch-time writes (32)
	Lists       int // sequential lists of all objects per encoding
	Watchers    int // concurrent watchers (50)
	WatchWrites int // writes made while they watch
	// OnStage, when set, is called as each stage begins ("create", "created", "get",
	// "list-json", "list-protobuf", "watch"): where profiles are started.
	OnStage func(stage string)
}

func (o Options) stage(name string) {
	if o.OnStage != nil {
		o.OnStage(name)
	}
}

// DeploymentTarget names the built-in Deployments' target.
const DeploymentTarget = "deployment"

// Target is one way of serving CloneSets, or the built-in Deployments they are
// compared with.
type Target struct {
	Name      string // "crd", "kruise-apiserver", "deployment"
	Group     string
	Namespace string
	// Protobuf: the server speaks protobuf for this kind (CRDs only speak JSON).
	Protobuf bool
	// Deployment: the target serves apps/v1 Deployments (Group is "apps"), the
	// built-in peer of a CloneSet of the same size.
	Deployment bool
}

func (t Target) collection() string {
	if t.Deployment {
		return fmt.Sprintf("/apis/%s/v1/namespaces/%s/deployments", t.Group, t.Namespace)
	}
	return fmt.Sprintf("/apis/%s/v1alpha1/namespaces/%s/clonesets", t.Group, t.Namespace)
}

// body is the JSON of the target's object called name.
func (t Target) body(name string) ([]byte, error) {
	if t.Deployment {
		return deploymentBody(name)
	}
	return cloneSetBody(t.Group, name)
}

// Result of one target.
type Result struct {
	Target string `json:"target"`
	Group  string `json:"group"`
	// Round: which round of the built-in comparison this is (1 for the first, which
	// every target runs; 0 in results that predate rounds).
	Round        int            `json:"round,omitempty"`
	Create       stats.Summary  `json:"create"`
	Get          stats.Summary  `json:"get"`
	GetProtobuf  *stats.Summary `json:"getProtobuf,omitempty"`
	ListJSON     stats.Summary  `json:"listJSON"`
	ListProtobuf *stats.Summary `json:"listProtobuf,omitempty"`
	Watch        WatchResult    `json:"watch"`
	// Processes: CPU and memory of the servers over this target's whole run.
	Processes map[string]proc.Usage `json:"processes"`
	// RSSAfterCreateMiB: resident memory with all objects stored, per server process.
	RSSAfterCreateMiB map[string]float64 `json:"rssAfterCreateMiB"`
}

// Run measures one target: it creates o.Objects CloneSets, gets each, lists them all,
// watches while updating, then deletes them.
func Run(ctx context.Context, cfg *rest.Config, t Target, o Options, pids map[string]int) (*Result, error) {
	logger := klog.FromContext(ctx).WithValues("target", t.Name)
	ctx = klog.NewContext(ctx, logger)
	clients, err := rawclient.NewClients(cfg, max(o.Clients, o.Watchers))
	if err != nil {
		return nil, err
	}
	if err := prepare(ctx, clients[0], t); err != nil {
		return nil, err
	}
	res := &Result{Target: t.Name, Group: t.Group, RSSAfterCreateMiB: map[string]float64{}}
	watch := proc.StartWatch(ctx, pids)

	logger.Info("Creating", "objects", o.Objects, "clients", o.Clients)
	o.stage("create")
	res.Create, err = create(ctx, clients[:o.Clients], t, o.Objects)
	if err != nil {
		return nil, err
	}
	for name, pid := range pids {
		if s, err := proc.Read(pid); err == nil {
			res.RSSAfterCreateMiB[name] = float64(s.RSSBytes) / (1 << 20)
		}
	}
	logger.Info("Created", "summary", res.Create)
	o.stage("created")

	o.stage("get")
	res.Get = get(ctx, clients[:o.Clients], t, o.Objects, rawclient.JSON)
	if t.Protobuf {
		s := get(ctx, clients[:o.Clients], t, o.Objects, rawclient.Protobuf)
		res.GetProtobuf = &s
	}
	o.stage("list-json")
	res.ListJSON = list(ctx, clients[0], t, o.Lists, rawclient.JSON)
	logger.Info("Listed JSON", "summary", res.ListJSON)
	if t.Protobuf {
		o.stage("list-protobuf")
		s := list(ctx, clients[0], t, o.Lists, rawclient.Protobuf)
		res.ListProtobuf = &s
		logger.Info("Listed protobuf", "summary", s)
	}
	o.stage("watch")
	res.Watch, err = watchWhileWriting(ctx, clients, t, o)
	if err != nil {
		return nil, err
	}
	logger.Info("Watched", "summary", res.Watch)
	res.Processes = watch.Stop()

	if err := deleteAll(ctx, clients[0], t); err != nil {
		return nil, err
	}
	return res, nil
}

// prepare readies a target for measuring: served, warmed up, storing what it is sent.
func prepare(ctx context.Context, c *rawclient.Client, t Target) error {
	if err := waitServed(ctx, c, t); err != nil {
		return err
	}
	return warmUp(ctx, c, t)
}

// waitServed waits until the collection answers: a new CRD or APIService takes a moment
// to reach kube-apiserver's handlers after it reports ready.
func waitServed(ctx context.Context, c *rawclient.Client, t Target) error {
	deadline := time.Now().Add(time.Minute)
	for {
		_, _, err := c.Do(ctx, "GET", t.collection()+"?limit=1", rawclient.JSON, "", nil, false)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not served after a minute: %w", t.collection(), err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// warmUp creates and deletes one object: the first write to a new CRD builds its
// validators, which would otherwise count in the first creates' latency. It also checks
// that the server stored what was sent: a server that prunes part of the object (a CRD
// schema missing a field) would be measured on less work than the other.
func warmUp(ctx context.Context, c *rawclient.Client, t Target) error {
	body, err := t.body("warm-up")
	if err != nil {
		return err
	}
	r, _, err := c.Do(ctx, "POST", t.collection(), rawclient.JSON, rawclient.JSON, body, true)
	if err != nil {
		return fmt.Errorf("warm-up create: %w", err)
	}
	if err := keptAllFields(body, r.Body); err != nil {
		return fmt.Errorf("%s does not store the CloneSet it was sent: %w", t.Name, err)
	}
	if _, _, err := c.Do(ctx, "DELETE", t.collection()+"/warm-up", rawclient.JSON, "", nil, false); err != nil {
		return fmt.Errorf("warm-up delete: %w", err)
	}
	return nil
}

func create(ctx context.Context, clients []*rawclient.Client, t Target, n int) (stats.Summary, error) {
	return createNamed(ctx, clients, t, n, objectName)
}

// createNamed creates n CloneSets named name(0..n-1) with one worker per client; the
// bodies are built before the clock starts.
func createNamed(ctx context.Context, clients []*rawclient.Client, t Target, n int, name func(int) string) (stats.Summary, error) {
	bodies := make([][]byte, n)
	for i := range bodies {
		b, err := t.body(name(i))
		if err != nil {
			return stats.Summary{}, err
		}
		bodies[i] = b
	}
	var rec stats.Recorder
	start := time.Now()
	rawclient.Parallel(ctx, len(clients), n, func(ctx context.Context, w, i int) {
		r, d, err := clients[w].Do(ctx, "POST", t.collection(), rawclient.JSON, rawclient.JSON, bodies[i], false)
		rec.Add(d, r.Bytes, r.Wire, err)
	})
	s := rec.Summarize(time.Since(start))
	if s.Errors > 0 {
		return s, fmt.Errorf("%d of %d creates failed, first: %s", s.Errors, n, s.FirstError)
	}
	return s, nil
}

func get(ctx context.Context, clients []*rawclient.Client, t Target, n int, accept string) stats.Summary {
	var rec stats.Recorder
	start := time.Now()
	rawclient.Parallel(ctx, len(clients), n, func(ctx context.Context, w, i int) {
		r, d, err := clients[w].Do(ctx, "GET", t.collection()+"/"+objectName(i), accept, "", nil, false)
		rec.Add(d, r.Bytes, r.Wire, err)
	})
	return rec.Summarize(time.Since(start))
}

// list reads the whole collection n times, one after the other, as `kubectl get` or an
// informer's initial list does (no resourceVersion: a consistent read).
func list(ctx context.Context, c *rawclient.Client, t Target, n int, accept string) stats.Summary {
	var rec stats.Recorder
	start := time.Now()
	for range n {
		r, d, err := c.Do(ctx, "GET", t.collection(), accept, "", nil, false)
		rec.Add(d, r.Bytes, r.Wire, err)
	}
	return rec.Summarize(time.Since(start))
}

func deleteAll(ctx context.Context, c *rawclient.Client, t Target) error {
	if _, _, err := c.Do(ctx, "DELETE", t.collection(), rawclient.JSON, "", nil, false); err != nil {
		return fmt.Errorf("deleting the CloneSets: %w", err)
	}
	return nil
}
