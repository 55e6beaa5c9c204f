package crdmove

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
)

// step is one step of the plan.
type step struct {
	name, what string
	run        func(ctx context.Context) error
}

// Run reads where the cluster is, prints the plan and, unless DryRun, carries it out.
func Run(ctx context.Context, c *Clients, o *Options) error {
	s, err := read(ctx, c, o)
	if err != nil {
		return err
	}
	if len(s.APIServices) == 0 {
		return fmt.Errorf("kruise-apiserver at %s serves none of the groups %s", o.KruiseAPIServer, strings.Join(o.Groups, ", "))
	}
	pre := !s.switchedAny(o)
	var plans []kindPlan
	if pre {
		for _, a := range s.APIServices {
			if a.Obj != nil && !a.local() {
				return fmt.Errorf("APIService %s points at another server already; not a cluster served from CRDs", a.Name)
			}
		}
		if plans, err = export(ctx, c, s); err != nil {
			return err
		}
	}
	steps := planSteps(c, o, s, plans, pre)
	printPlan(o.Out, o, s, plans, pre, steps)
	if o.DryRun {
		if pre {
			res, err := importAll(ctx, c, o, plans, true)
			if err != nil {
				return fmt.Errorf("kruise-apiserver refuses an object (nothing was changed): %w", err)
			}
			fmt.Fprintf(o.Out, "kruise-apiserver accepts every object (dry run): %d to create, %d already imported\n", res.Created, res.Unchanged)
		}
		return nil
	}
	switchAt := len(steps)
	for i, st := range steps {
		if st.name == "switch" {
			switchAt = i
		}
	}
	for i, st := range steps {
		start := time.Now()
		fmt.Fprintf(o.Out, "step %d/%d %s: %s\n", i+1, len(steps), st.name, st.what)
		err := st.run(ctx)
		if errors.Is(err, ErrInterrupted) {
			return err
		}
		if err != nil {
			if pre && i < switchAt {
				fmt.Fprintf(o.Out, "step %s failed before the switch: undoing (the cluster stays served from the CRDs)\n", st.name)
				if uerr := undo(context.WithoutCancel(ctx), c, plans); uerr != nil {
					return fmt.Errorf("%s: %w; undoing: %v", st.name, err, uerr)
				}
				return fmt.Errorf("%s: %w (undone: the CRDs serve as before; imported copies stay unserved in kruise-apiserver and a later run updates them)", st.name, err)
			}
			return fmt.Errorf("%s: %w (after the switch: run again to go on, or --rollback while the CRDs exist)", st.name, err)
		}
		fmt.Fprintf(o.Out, "step %d/%d %s: done in %d ms\n", i+1, len(steps), st.name, time.Since(start).Milliseconds())
		if o.interrupted(st.name, -1) {
			return ErrInterrupted
		}
	}
	fmt.Fprintf(o.Out, "done: the Kruise kinds are served by kruise-apiserver; start kruise-controller\n")
	return nil
}

// planSteps lists what is left to do from state s.
func planSteps(c *Clients, o *Options, s *state, exported []kindPlan, pre bool) []step {
	var steps []step
	// the import step reads the objects again under the freeze; the later steps use that
	plans := exported
	objects := 0
	for _, p := range plans {
		objects += len(p.Objects)
	}
	if pre {
		steps = append(steps,
			step{"freeze", "deny writes to the CRD-served Kruise kinds but this user's (ValidatingAdmissionPolicy " + freezeName + ")", func(ctx context.Context) error {
				if err := freeze(ctx, c, o); err != nil {
					return err
				}
				return waitFrozen(ctx, c, o, plans)
			}},
			step{"import", fmt.Sprintf("copy %d objects into kruise-apiserver with their UIDs, creationTimestamps, generations and status", objects), func(ctx context.Context) error {
				// read again under the freeze: what was listed for the plan may have changed
				s2, err := read(ctx, c, o)
				if err != nil {
					return err
				}
				fresh, err := export(ctx, c, s2)
				if err != nil {
					return err
				}
				plans = fresh
				res, err := importAll(ctx, c, o, plans, false)
				if err != nil {
					return err
				}
				fmt.Fprintf(o.Out, "  created %d, updated %d, unchanged %d\n", res.Created, res.Updated, res.Unchanged)
				return verify(ctx, c, plans)
			}},
			step{"release", "move the CRD copies' finalizers into an annotation (kruise-apiserver's copies keep them)", func(ctx context.Context) error {
				n, err := moveFinalizers(ctx, c, plans, false)
				fmt.Fprintf(o.Out, "  %d objects\n", n)
				return err
			}},
		)
	}
	if !s.switchedAll(o) {
		var names []string
		for _, a := range s.APIServices {
			names = append(names, a.Name)
		}
		steps = append(steps, step{"switch", "point APIServices " + strings.Join(names, " ") + " at kruise-apiserver, then wait until each is Available", func(ctx context.Context) error {
			took, err := switchAPIServices(ctx, c, o, s)
			var keys []string
			for k := range took {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(o.Out, "  %s: Available on kruise-apiserver %d ms after its update (proxied from the update on)\n", k, took[k].Milliseconds())
			}
			return err
		}})
	}
	var served []crd
	for _, cr := range s.CRDs {
		if len(cr.Served) > 0 {
			served = append(served, cr)
		}
	}
	if len(served) > 0 {
		steps = append(steps, step{"unserve", fmt.Sprintf("set the versions of %d CRDs served: false (closes every watch still open on their storage)", len(served)), func(ctx context.Context) error {
			for _, cr := range served {
				if err := setServed(ctx, c, cr, false); err != nil {
					return fmt.Errorf("CRD %s: %w", cr.Name, err)
				}
			}
			return nil
		}})
	}
	if len(s.CRDs) > 0 && !o.KeepCRDs {
		steps = append(steps, step{"drain", fmt.Sprintf("wait until the CRDs' storage is torn down (%s after the unserve step)", o.DrainWait), func(ctx context.Context) error {
			s2, err := read(ctx, c, o)
			if err != nil {
				return err
			}
			until := drainUntil(s2, o.DrainWait)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Until(until)):
				return nil
			}
		}})
	}
	if pre || s.Frozen {
		steps = append(steps, step{"unfreeze", "remove the ValidatingAdmissionPolicy", func(ctx context.Context) error { return unfreeze(ctx, c) }})
	}
	if len(s.CRDs) > 0 && !o.KeepCRDs {
		steps = append(steps, step{"delete-crds", fmt.Sprintf("delete the %d Kruise CRDs (and their copies of the objects; nothing serves or watches them any more)", len(s.CRDs)), func(ctx context.Context) error {
			s2, err := read(ctx, c, o)
			if err != nil {
				return err
			}
			return deleteCRDs(ctx, c, o, s2)
		}})
	}
	return steps
}

func printPlan(out io.Writer, o *Options, s *state, plans []kindPlan, pre bool, steps []step) {
	fmt.Fprintf(out, "Moving %s from CRDs to kruise-apiserver (%s, Service %s/%s:%d)\n", strings.Join(o.Groups, ", "), o.KruiseAPIServer, o.ServiceNamespace, o.ServiceName, o.ServicePort)
	if pre {
		fmt.Fprintf(out, "CRDs (objects are read and imported in VERSION):\n")
		for _, p := range plans {
			fmt.Fprintf(out, "  %-45s %-26s served %-17s VERSION %-9s objects %d\n", p.CRD.Name, p.CRD.Kind, strings.Join(p.CRD.Served, ","), p.Version, len(p.Objects))
		}
	} else {
		fmt.Fprintf(out, "Already switched (the objects were imported before): going on from there.\n")
		for _, cr := range s.CRDs {
			fmt.Fprintf(out, "  %-45s served %q (before: %q)\n", cr.Name, strings.Join(cr.Served, ","), strings.Join(cr.Recorded, ","))
		}
	}
	fmt.Fprintf(out, "APIServices:\n")
	for _, a := range s.APIServices {
		now := "missing"
		switch {
		case a.points(o):
			now = "kruise-apiserver"
		case a.local():
			now = "local (CRDs)"
		}
		fmt.Fprintf(out, "  %-28s %s\n", a.Name, now)
	}
	fmt.Fprintf(out, "Steps:\n")
	for i, st := range steps {
		fmt.Fprintf(out, "  %d. %-11s %s\n", i+1, st.name, st.what)
	}
}

// undo puts back what the steps before the switch changed.
func undo(ctx context.Context, c *Clients, plans []kindPlan) error {
	if _, err := moveFinalizers(ctx, c, plans, true); err != nil {
		return err
	}
	return unfreeze(ctx, c)
}

// Rollback serves the Kruise groups from the CRDs again, as before the switch. Objects
// created or changed in kruise-apiserver since are not carried back.
func Rollback(ctx context.Context, c *Clients, o *Options) error {
	s, err := read(ctx, c, o)
	if err != nil {
		return err
	}
	if len(s.CRDs) == 0 {
		return fmt.Errorf("no Kruise CRDs left: the migration finished (delete-crds); there is nothing to roll back to")
	}
	for _, cr := range s.CRDs {
		if cr.Deleting {
			return fmt.Errorf("CRD %s is being deleted: its objects are going; no rollback", cr.Name)
		}
	}
	for _, cr := range s.CRDs {
		if len(cr.Recorded) > 0 {
			fmt.Fprintf(o.Out, "serving CRD %s again (%s)\n", cr.Name, strings.Join(cr.Recorded, ","))
			if err := setServed(ctx, c, cr, true); err != nil {
				return fmt.Errorf("CRD %s: %w", cr.Name, err)
			}
		}
	}
	// a group/version some CRD served before goes back to it; one no CRD served (the
	// migration created its APIService) goes away, as before
	crdServed := map[string]bool{}
	for _, cr := range s.CRDs {
		for _, v := range append(append([]string(nil), cr.Recorded...), cr.Served...) {
			crdServed[v+"."+cr.Group] = true
		}
	}
	var local []apiService
	for _, a := range s.APIServices {
		if !a.points(o) {
			continue
		}
		if !crdServed[a.Name] {
			fmt.Fprintf(o.Out, "APIService %s removed (no CRD served it before)\n", a.Name)
			if err := c.Kube.Resource(apiServiceGVR).Delete(ctx, a.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("APIService %s: %w", a.Name, err)
			}
			continue
		}
		fmt.Fprintf(o.Out, "APIService %s back to local (the CRDs)\n", a.Name)
		if err := pointBack(ctx, c, a); err != nil {
			return fmt.Errorf("APIService %s: %w", a.Name, err)
		}
		local = append(local, a)
	}
	for _, a := range local {
		err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, o.Timeout, true, func(ctx context.Context) (bool, error) {
			obj, err := c.Kube.Resource(apiServiceGVR).Get(ctx, a.Name, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			ok, reason := apiService{Obj: obj}.available()
			return ok && reason == "Local", nil
		})
		if err != nil {
			return fmt.Errorf("APIService %s not Available as local: %w", a.Name, err)
		}
	}
	s2, err := read(ctx, c, o)
	if err != nil {
		return err
	}
	var plans []kindPlan
	for _, cr := range s2.CRDs {
		if len(cr.Served) > 0 {
			plans = append(plans, kindPlan{CRD: cr, Version: cr.Served[0]})
		}
	}
	n, err := moveFinalizers(ctx, c, plans, true)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "finalizers restored on %d objects\n", n)
	if err := unfreeze(ctx, c); err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "rolled back: the CRDs serve the Kruise kinds; start OpenKruise's controllers again\n")
	return nil
}
