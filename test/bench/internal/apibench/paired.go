package apibench

import (
	"context"
	"fmt"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// PairedCreates compares the create throughput of two targets in alternating rounds.
// One long batch per target measures each under whatever else the machine did at the
// time: on a shared 2-core machine the verdict flipped between runs of the same
// commit. Rounds in A B B A order put both targets under the same drift, and the
// median of the per-round ratios ignores a round spoiled by a burst of other load.
type PairedCreates struct {
	// Base is the reference (the CRD), Subject the server judged against it.
	Base    string `json:"base"`
	Subject string `json:"subject"`
	Rounds  []Pair `json:"rounds"`
	// MedianRatio: median of Subject/Base throughput over the rounds.
	MedianRatio float64 `json:"medianRatio"`
}

// Pair is one round: the same number of creates on each target, back to back.
type Pair struct {
	SubjectFirst bool          `json:"subjectFirst"`
	Base         stats.Summary `json:"base"`
	Subject      stats.Summary `json:"subject"`
	Ratio        float64       `json:"ratio"`
}

// PairedTarget is a target with the client configuration that reaches it.
type PairedTarget struct {
	Target
	Config *rest.Config
}

// RunPairedCreates makes `rounds` rounds of n creates on each of base and subject with
// `clients` concurrent clients; the objects of a round are deleted before the next, so
// every round starts from the same store size.
func RunPairedCreates(ctx context.Context, base, subject PairedTarget, rounds, n, clients int) (*PairedCreates, error) {
	logger := klog.FromContext(ctx)
	baseClients, err := rawclient.NewClients(base.Config, clients)
	if err != nil {
		return nil, err
	}
	subjectClients, err := rawclient.NewClients(subject.Config, clients)
	if err != nil {
		return nil, err
	}
	if err := prepare(ctx, baseClients[0], base.Target); err != nil {
		return nil, err
	}
	if err := prepare(ctx, subjectClients[0], subject.Target); err != nil {
		return nil, err
	}
	out := &PairedCreates{Base: base.Name, Subject: subject.Name}
	for r := range rounds {
		p := Pair{SubjectFirst: r%2 == 1}
		one := func(cs []*rawclient.Client, t Target) (stats.Summary, error) {
			s, err := createNamed(ctx, cs, t, n, func(i int) string { return fmt.Sprintf("pair-%02d-%05d", r, i) })
			if err != nil {
				return s, fmt.Errorf("round %d on %s: %w", r, t.Name, err)
			}
			return s, deleteAll(ctx, cs[0], t)
		}
		if p.SubjectFirst {
			if p.Subject, err = one(subjectClients, subject.Target); err != nil {
				return nil, err
			}
		}
		if p.Base, err = one(baseClients, base.Target); err != nil {
			return nil, err
		}
		if !p.SubjectFirst {
			if p.Subject, err = one(subjectClients, subject.Target); err != nil {
				return nil, err
			}
		}
		p.Ratio = p.Subject.PerSec / p.Base.PerSec
		logger.Info("Paired creates", "round", r, "base", p.Base.PerSec, "subject", p.Subject.PerSec, "ratio", p.Ratio)
		out.Rounds = append(out.Rounds, p)
	}
	out.MedianRatio = MedianRatio(out.Rounds)
	return out, nil
}

// MedianRatio is the median of the rounds' ratios (the mean of the middle two for an
// even count); 0 without rounds.
func MedianRatio(rounds []Pair) float64 {
	r := make([]float64, len(rounds))
	for i, p := range rounds {
		r[i] = p.Ratio
	}
	return stats.Median(r)
}
