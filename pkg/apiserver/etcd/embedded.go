// Package etcd runs an etcd member inside kruise-apiserver, so a single binary with no
// external dependency stores the Kruise API (the default; production may point
// --etcd-servers at an external cluster instead).
package etcd

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/klog/v2"
)

// Options configure the embedded member. It listens on 127.0.0.1 only, and only over TLS
// with client certificates: the API server is its sole client, and loopback alone is no
// boundary (any local process, or a pod sharing the network namespace, can dial it and
// would otherwise read and delete every object past all authorization and admission).
type Options struct {
	DataDir    string
	ClientPort int
	PeerPort   int
	// StartTimeout bounds how long to wait for the member to become ready.
	StartTimeout time.Duration
	// UnsafeNoFsync skips fsync of the WAL and backend: a machine crash loses acknowledged
	// writes. Only for disposable stacks whose cluster etcd runs the same way, so both
	// stores pay the same per-write cost (make up, the benchmark).
	UnsafeNoFsync bool
}

// SnapshotCatchUpEntries is how many applied raft entries the member keeps in memory
// after each raft log compaction (etcd compacts it every 100 applied entries). etcd's
// default, 5000, lets a slow follower catch up from memory instead of being sent a
// snapshot; this member is always alone in its cluster (InitialCluster names only
// itself, and --etcd-servers is the way to run a replicated store), so the entries help
// no one, yet each holds a whole request: every object written is kept once more, e.g.
// about 7 MiB of live heap after 2000 CloneSets were created and their status written
// twice (test/bench/results/2026-11-26-embedded-etcd-memory.md). Durability is
// unaffected: entries are in the WAL (fsynced unless UnsafeNoFsync) before they are
// applied, and this only trims the in-memory copy of entries already applied. Were a
// member ever added, it would be sent a snapshot rather than replayed entries.
const SnapshotCatchUpEntries = 100

// ClientURL is the URL the API server's storage should dial.
func (o Options) ClientURL() string { return fmt.Sprintf("https://127.0.0.1:%d", o.ClientPort) }

// PKI is where the member's certificates live: the storage client dials with
// PKI().ClientCertFile/ClientKeyFile and trusts PKI().CAFile.
func (o Options) PKI() PKI { return PKIFor(o.DataDir) }

// Validate reports unusable options.
func (o Options) Validate() []error {
	var errs []error
	if o.DataDir == "" {
		errs = append(errs, fmt.Errorf("--embedded-etcd-data-dir is required when --etcd-servers is not set"))
	}
	for name, p := range map[string]int{"--embedded-etcd-client-port": o.ClientPort, "--embedded-etcd-peer-port": o.PeerPort} {
		if p <= 0 || p > 65535 {
			errs = append(errs, fmt.Errorf("%s must be between 1 and 65535, got %d", name, p))
		}
	}
	if o.ClientPort == o.PeerPort {
		errs = append(errs, fmt.Errorf("--embedded-etcd-client-port and --embedded-etcd-peer-port must differ"))
	}
	return errs
}

// Start starts the member and waits until it serves. The member stops when ctx ends;
// the returned channel closes once it has stopped and released its data dir.
func Start(ctx context.Context, o Options) (<-chan struct{}, error) {
	logger := klog.FromContext(ctx)
	pki := o.PKI()
	generated, err := pki.Ensure(time.Now())
	if err != nil {
		return nil, err
	}
	if generated {
		logger.Info("Generated embedded etcd certificates", "dir", pki.Dir)
	}
	cfg := embed.NewConfig()
	cfg.Name = "kruise-apiserver"
	cfg.Dir = o.DataDir
	cfg.LogLevel = "warn"
	clientURL, err := url.Parse(o.ClientURL())
	if err != nil {
		return nil, err
	}
	peerURL, err := url.Parse(fmt.Sprintf("https://127.0.0.1:%d", o.PeerPort))
	if err != nil {
		return nil, err
	}
	cfg.ListenClientUrls = []url.URL{*clientURL}
	cfg.AdvertiseClientUrls = []url.URL{*clientURL}
	cfg.ListenPeerUrls = []url.URL{*peerURL}
	cfg.AdvertisePeerUrls = []url.URL{*peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	// Clients must present a certificate from our CA. The peer port gets the same: a
	// single member has no peers, but its peer listener still answers (membership,
	// raft), so it must not be open either.
	tlsInfo := transport.TLSInfo{
		CertFile:       pki.ServerCertFile(),
		KeyFile:        pki.ServerKeyFile(),
		TrustedCAFile:  pki.CAFile(),
		ClientCertAuth: true,
	}
	cfg.ClientTLSInfo = tlsInfo
	cfg.PeerTLSInfo = tlsInfo
	// The API server compacts through its own storage layer; keep a bounded history here too.
	cfg.AutoCompactionMode = "periodic"
	cfg.AutoCompactionRetention = "1h"
	cfg.UnsafeNoFsync = o.UnsafeNoFsync
	cfg.SnapshotCatchUpEntries = SnapshotCatchUpEntries

	// etcd waits for the lock on its database without a time limit (bbolt's flock), after
	// it has bound its ports: a second process on a data dir in use would hang for ever.
	if err := checkDataDirFree(o.DataDir); err != nil {
		return nil, err
	}
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, fmt.Errorf("starting embedded etcd in %s: %w", o.DataDir, err)
	}
	timeout := o.StartTimeout
	if timeout == 0 {
		timeout = time.Minute
	}
	select {
	case <-e.Server.ReadyNotify():
		logger.Info("Embedded etcd ready", "dataDir", o.DataDir, "client", o.ClientURL())
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("embedded etcd failed to start: %w", err)
	case <-time.After(timeout):
		e.Server.Stop()
		e.Close()
		return nil, fmt.Errorf("embedded etcd not ready after %s", timeout)
	}

	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-ctx.Done():
		case err := <-e.Err():
			logger.Error(err, "Embedded etcd stopped with an error")
		}
		e.Close()
	}()
	return stopped, nil
}
