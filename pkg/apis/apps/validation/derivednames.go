package validation

import (
	"fmt"
	"math"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Controllers name the objects they make after the object that makes them, and label
// them with its name. A name the API stores but whose derived names cannot exist makes
// every create of those objects fail for ever (events pile up, nothing runs). Each
// kind's validation therefore refuses, at metadata.name, a name too long for any name
// derived from it: the arithmetic is here, once.

// derivedName is one name a controller derives from an object's name: the name plus at
// most `added` characters, which must fit in `limit` characters.
type derivedName struct {
	// what the derived name is, with <name> for the object's name, e.g. "its pods'
	// label controller-revision-hash=<name>-<hash>".
	what  string
	added int
	// limit and limitOf: the longest the derived name may be, and what sets that limit
	// ("a label value").
	limit   int
	limitOf string
}

// longestName is the longest object name whose derived name fits.
func (d derivedName) longestName() int { return d.limit - d.added }

// longestName is the longest object name for which every derived name fits (no limit:
// the most an int holds).
func longestName(derived []derivedName) int {
	longest := math.MaxInt
	for _, d := range derived {
		longest = min(longest, d.longestName())
	}
	return longest
}

// validateDerivedNames refuses name, at fldPath, when one of the derived names would be
// too long, naming the one that allows the shortest name.
func validateDerivedNames(name string, fldPath *field.Path, derived ...derivedName) field.ErrorList {
	var tightest *derivedName
	for i := range derived {
		d := &derived[i]
		if len(name) > d.longestName() && (tightest == nil || d.longestName() < tightest.longestName()) {
			tightest = d
		}
	}
	if tightest == nil {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, name, fmt.Sprintf(
		"must be no more than %d characters: %s, the name and up to %d more characters, and %s may be at most %d characters",
		tightest.longestName(), tightest.what, tightest.added, tightest.limitOf, tightest.limit))}
}

const (
	// maxRevisionHashLength is the longest hash in a ControllerRevision name: a 32-bit
	// hash, safe-encoded, is at most 10 characters (kube's history.HashControllerRevision).
	maxRevisionHashLength = 10
	// generatedSuffixLength is what kube-apiserver appends to a generateName (5 random
	// characters, the prefix first cut to 58 so that the whole fits in 63).
	generatedSuffixLength = 5
	// maxDNSSubdomainLength is the longest name of most kinds (a DNS subdomain).
	maxDNSSubdomainLength = validation.DNS1123SubdomainMaxLength
)

// revisionLabel is the label controller-revision-hash=<name>-<hash> a workload puts on
// its pods (a UnitedDeployment on its subsets' workloads): the ControllerRevision's
// name. on says what carries it ("its pods are").
func revisionLabel(on string) derivedName {
	return derivedName{
		what:    on + " labelled controller-revision-hash=<name>-<hash>",
		added:   1 + maxRevisionHashLength,
		limit:   validation.LabelValueMaxLength,
		limitOf: "a label value",
	}
}

// MaxWorkloadNameLength is the longest name of a pod-owning workload that labels its
// pods with its revision (CloneSet, Advanced StatefulSet, Advanced DaemonSet, and
// kube's StatefulSet too, whose validation does not say so): 52. Its pod names,
// <name>-<5 characters> or <name>-<ordinal of at most 10 digits>, fit in 63 then.
const MaxWorkloadNameLength = validation.LabelValueMaxLength - 1 - maxRevisionHashLength

// validateWorkloadName refuses names whose pods' revision label could not be written.
func validateWorkloadName(name string, fldPath *field.Path) field.ErrorList {
	return validateDerivedNames(name, fldPath, revisionLabel("its pods are"))
}

// broadcastJobPods: a BroadcastJob labels its pods broadcastjob-name=<name> (its pods
// themselves, <name>-<5 characters>, may be longer).
var broadcastJobPods = derivedName{
	what:    "its pods are labelled broadcastjob-name=<name>",
	limit:   validation.LabelValueMaxLength,
	limitOf: "a label value",
}

// imageListPullJobChildren: an ImageListPullJob makes an ImagePullJob per image, named
// <name>-<8 hex digits of the image's hash>.
var imageListPullJobChildren = derivedName{
	what:    "its ImagePullJobs are named <name>-<8 hex digits>",
	added:   1 + 8,
	limit:   maxDNSSubdomainLength,
	limitOf: "an ImagePullJob's name",
}

// maxJobNameLength is the longest name a Job can run with: kube labels its pods
// job-name=<name> and batch.kubernetes.io/job-name=<name> (kube's CronJob keeps its
// names to 52 for this).
const maxJobNameLength = validation.LabelValueMaxLength

// scheduledTimeDigits: an AdvancedCronJob names each run <name>-<Unix time of the
// scheduled start, in seconds>, 10 digits from 2001 to 2286.
const scheduledTimeDigits = 10

// indexedJobHostnames: kube's Job controller gives each pod of an Indexed Job the
// hostname <Job name>-<index>, a DNS label, and kube's Job validation refuses a Job
// whose last index (completions-1) would not fit: for an AdvancedCronJob's run,
// <name>-<scheduled Unix time>-<index>. None for other Jobs.
func indexedJobHostnames(spec *batchv1.JobSpec) []derivedName {
	if spec.CompletionMode == nil || *spec.CompletionMode != batchv1.IndexedCompletion || spec.Completions == nil || *spec.Completions <= 0 {
		return nil
	}
	last := strconv.Itoa(int(*spec.Completions - 1))
	return []derivedName{{
		what:    "its Jobs' pods have the hostname <name>-<scheduled Unix time>-<index up to " + last + ">",
		added:   1 + scheduledTimeDigits + 1 + len(last),
		limit:   validation.DNS1123LabelMaxLength,
		limitOf: "a hostname (a DNS label)",
	}}
}

// cronRuns is the name of an AdvancedCronJob's runs of a kind whose own name may be at
// most longest characters (why: limitOf).
func cronRuns(kind string, longest int, limitOf string) derivedName {
	return derivedName{
		what:    "its " + kind + "s are named <name>-<scheduled Unix time>",
		added:   1 + scheduledTimeDigits,
		limit:   longest,
		limitOf: limitOf,
	}
}

// unitedDeploymentSubset is the name kube-apiserver generates for a subset's workload
// from the generateName <name>-<subset>-, for the kinds limited to
// MaxWorkloadNameLength (a Deployment's name is not: it fits by the generator's cut).
// The generator cuts the prefix only past 58 characters, so past 52 already.
func unitedDeploymentSubset(kind, subset string) derivedName {
	return derivedName{
		what:    fmt.Sprintf("the %s of subset %s is named <name>-%s-<%d random characters>", kind, subset, subset, generatedSuffixLength),
		added:   1 + len(subset) + 1 + generatedSuffixLength,
		limit:   MaxWorkloadNameLength,
		limitOf: "a " + kind + "'s name (its pods are labelled controller-revision-hash=<name>-<hash>)",
	}
}
