package resourcedistribution

import (
	"sort"

	"k8s.io/apimachinery/pkg/util/sets"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
)

// Plan is what one sync writes, and what it already finds done.
type Plan struct {
	// Create: target namespaces without an object of the copies' name.
	Create []Object
	// Update: our copies that differ from the source, already rewritten (Merge).
	Update []Object
	// Delete: our copies in namespaces that are no target any more (or under a name
	// the source no longer has).
	Delete []Object
	// Replace: our copies that differ from the source but are immutable (kube refuses
	// to change their data): deleted, then created again from the source.
	Replace []Object
	// InSync: target namespaces whose copy is already up to date.
	InSync []string
	// Conflicts: target namespaces holding an object of the copies' name and kind that
	// is not ours, with the reason; it is never written.
	Conflicts map[string]string
}

// Compute decides a sync of one distribution:
//
//   - owned are our copies (controller reference to the distribution) wherever they are;
//   - found are the objects of the copies' name in target namespaces where owned has
//     none, read from the API (nil: there is none). One of ours there (the cache was
//     behind) counts as owned; any other is a conflict and is left alone;
//   - a target namespace with nothing is created, a copy that differs from Desired is
//     updated (replaced when it is immutable and its content differs), an owned copy
//     outside the targets (or under another name) is deleted.
//
// Nothing that is not ours is ever in Update, Replace or Delete.
func Compute(src Source, targets rdcontract.TargetSet, owned []Object, found map[string]Object) Plan {
	p := Plan{Conflicts: map[string]string{}}
	want := sets.New(targets.Namespaces...)
	byNS := map[string]Object{}
	for _, c := range owned {
		if !Owned(c, src.Distribution) {
			continue // defensive: the caller's index gave a stranger
		}
		if c.GetName() != src.Name() || !want.Has(c.GetNamespace()) {
			p.Delete = append(p.Delete, c)
			continue
		}
		byNS[c.GetNamespace()] = c
	}
	for _, ns := range targets.Namespaces {
		cur, ok := byNS[ns]
		if !ok {
			if f := found[ns]; f != nil {
				if !Owned(f, src.Distribution) {
					p.Conflicts[ns] = ConflictMessage(src.Resource.Kind(), f)
					continue
				}
				cur = f
			}
		}
		desired := src.Desired(ns)
		switch {
		case cur == nil:
			p.Create = append(p.Create, desired)
		case UpToDate(cur, desired):
			p.InSync = append(p.InSync, ns)
		case immutable(cur) && !HoldsContent(cur, desired):
			p.Replace = append(p.Replace, cur)
		default:
			p.Update = append(p.Update, Merge(cur, desired))
		}
	}
	sort.Slice(p.Delete, func(i, j int) bool { return p.Delete[i].GetNamespace() < p.Delete[j].GetNamespace() })
	return p
}

// Unknown are the target namespaces where neither owned nor found says what is there:
// the caller reads them from the API before calling Compute.
func Unknown(src Source, targets rdcontract.TargetSet, owned []Object) []string {
	have := sets.New[string]()
	for _, c := range owned {
		if c.GetName() == src.Name() && Owned(c, src.Distribution) {
			have.Insert(c.GetNamespace())
		}
	}
	var out []string
	for _, ns := range targets.Namespaces {
		if !have.Has(ns) {
			out = append(out, ns)
		}
	}
	return out
}
