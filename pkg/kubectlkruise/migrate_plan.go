package kubectlkruise

import "fmt"

// migrationSide is what the plan knows of one workload: its desired replicas and how
// many of its pods exist and are available, as its controller last reported.
type migrationSide struct {
	Replicas  int32
	Pods      int32
	Available int32
	// Observed is false while the controller has not reported on the latest spec;
	// its counts may then be stale, and the plan waits.
	Observed bool
}

// migrationState is one observation of a migration from a Deployment to a CloneSet.
type migrationState struct {
	// Total is the number of pods the application runs: the Deployment's replicas
	// when the migration began.
	Total int32
	// MaxUnavailable and MaxSurge are resolved against Total (the Deployment's
	// rolling-update limits unless the user gave others).
	MaxUnavailable, MaxSurge int32
	Deployment, CloneSet     migrationSide
}

// migrationStep is what to do next: write the two replica counts (unchanged counts
// are no write), or wait (Wait says for what), or nothing more (Done).
type migrationStep struct {
	Done                                 bool
	Wait                                 string
	DeploymentReplicas, CloneSetReplicas int32
}

// planMigration moves pods from the Deployment to the CloneSet. It only scales the
// Deployment down by as many pods as keep at least Total-MaxUnavailable pods
// available, counting every pod it removes as available (the worst case); and it
// keeps the CloneSet at the pods the Deployment gave up plus MaxSurge, so new pods
// start before old ones stop when the limits allow it. Counts above the desired
// replicas are not counted as available: they are pods on their way out.
func planMigration(s migrationState) migrationStep {
	step := migrationStep{DeploymentReplicas: s.Deployment.Replicas, CloneSetReplicas: s.CloneSet.Replicas}
	if !s.Deployment.Observed || !s.CloneSet.Observed {
		step.Wait = "the controllers to observe the last change"
		return step
	}
	depAvailable := min(s.Deployment.Available, s.Deployment.Replicas)
	csAvailable := min(s.CloneSet.Available, s.CloneSet.Replicas)
	if s.Deployment.Replicas == 0 && s.Deployment.Pods == 0 && s.CloneSet.Replicas >= s.Total && csAvailable >= s.Total {
		step.Done = true
		return step
	}
	budget := depAvailable + csAvailable - (s.Total - s.MaxUnavailable)
	if budget > 0 && s.Deployment.Replicas > 0 {
		step.DeploymentReplicas = s.Deployment.Replicas - min(budget, s.Deployment.Replicas)
	}
	want := min(s.Total, s.Total-step.DeploymentReplicas+s.MaxSurge)
	if want > s.CloneSet.Replicas {
		step.CloneSetReplicas = want
	}
	if step.DeploymentReplicas == s.Deployment.Replicas && step.CloneSetReplicas == s.CloneSet.Replicas {
		switch {
		case s.Deployment.Replicas == 0 && s.Deployment.Pods > 0:
			step.Wait = fmt.Sprintf("%d pods of the Deployment to terminate", s.Deployment.Pods)
		default:
			step.Wait = fmt.Sprintf("pods to become available (%d of %d, at most %d unavailable)",
				depAvailable+csAvailable, s.Total, s.MaxUnavailable)
		}
	}
	return step
}

// simulateMigration runs the plan as if every pod became available at once: the
// steps a --dry-run shows.
func simulateMigration(s migrationState) []migrationStep {
	var steps []migrationStep
	for i := 0; i < int(2*s.Total)+4; i++ {
		step := planMigration(s)
		if step.Done || step.Wait != "" {
			break
		}
		steps = append(steps, step)
		s.Deployment = migrationSide{Replicas: step.DeploymentReplicas, Pods: step.DeploymentReplicas, Available: step.DeploymentReplicas, Observed: true}
		s.CloneSet = migrationSide{Replicas: step.CloneSetReplicas, Pods: step.CloneSetReplicas, Available: step.CloneSetReplicas, Observed: true}
	}
	return steps
}
