package kubectlkruise

import (
	"reflect"
	"testing"
)

func side(replicas, available int32) migrationSide {
	return migrationSide{Replicas: replicas, Pods: replicas, Available: available, Observed: true}
}

func TestPlanMigration(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   migrationState
		want migrationStep
	}{
		{
			name: "start, one may be down, no surge: one Deployment pod goes, one CloneSet pod comes",
			in:   migrationState{Total: 3, MaxUnavailable: 1, Deployment: side(3, 3), CloneSet: side(0, 0)},
			want: migrationStep{DeploymentReplicas: 2, CloneSetReplicas: 1},
		},
		{
			name: "new pod not yet available: wait, one is already down",
			in:   migrationState{Total: 3, MaxUnavailable: 1, Deployment: side(2, 2), CloneSet: side(1, 0)},
			want: migrationStep{DeploymentReplicas: 2, CloneSetReplicas: 1, Wait: "pods to become available (2 of 3, at most 1 unavailable)"},
		},
		{
			name: "new pod available: next one",
			in:   migrationState{Total: 3, MaxUnavailable: 1, Deployment: side(2, 2), CloneSet: side(1, 1)},
			want: migrationStep{DeploymentReplicas: 1, CloneSetReplicas: 2},
		},
		{
			name: "none may be down: surge first",
			in:   migrationState{Total: 3, MaxSurge: 1, Deployment: side(3, 3), CloneSet: side(0, 0)},
			want: migrationStep{DeploymentReplicas: 3, CloneSetReplicas: 1},
		},
		{
			name: "none may be down: surge pod available, one Deployment pod goes and the next surges",
			in:   migrationState{Total: 3, MaxSurge: 1, Deployment: side(3, 3), CloneSet: side(1, 1)},
			want: migrationStep{DeploymentReplicas: 2, CloneSetReplicas: 2},
		},
		{
			name: "a Deployment pod already down uses the budget",
			in:   migrationState{Total: 4, MaxUnavailable: 1, Deployment: side(4, 3), CloneSet: side(0, 0)},
			want: migrationStep{DeploymentReplicas: 4, CloneSetReplicas: 0, Wait: "pods to become available (3 of 4, at most 1 unavailable)"},
		},
		{
			name: "larger budget moves several pods at once",
			in:   migrationState{Total: 10, MaxUnavailable: 3, MaxSurge: 2, Deployment: side(10, 10), CloneSet: side(0, 0)},
			want: migrationStep{DeploymentReplicas: 7, CloneSetReplicas: 5},
		},
		{
			name: "stale status: wait",
			in:   migrationState{Total: 3, MaxUnavailable: 1, Deployment: migrationSide{Replicas: 2, Available: 3}, CloneSet: side(1, 0)},
			want: migrationStep{DeploymentReplicas: 2, CloneSetReplicas: 1, Wait: "the controllers to observe the last change"},
		},
		{
			name: "available above replicas is not counted (pods on their way out)",
			in:   migrationState{Total: 3, MaxUnavailable: 1, Deployment: migrationSide{Replicas: 2, Pods: 3, Available: 3, Observed: true}, CloneSet: side(1, 0)},
			want: migrationStep{DeploymentReplicas: 2, CloneSetReplicas: 1, Wait: "pods to become available (2 of 3, at most 1 unavailable)"},
		},
		{
			name: "Deployment at zero with pods terminating: wait",
			in:   migrationState{Total: 2, MaxUnavailable: 1, Deployment: migrationSide{Replicas: 0, Pods: 1, Observed: true}, CloneSet: side(2, 2)},
			want: migrationStep{CloneSetReplicas: 2, Wait: "1 pods of the Deployment to terminate"},
		},
		{
			name: "all moved and available: done",
			in:   migrationState{Total: 2, MaxUnavailable: 1, Deployment: side(0, 0), CloneSet: side(2, 2)},
			want: migrationStep{Done: true, CloneSetReplicas: 2},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := planMigration(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("planMigration = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Whatever the limits, every planned step keeps at least Total-MaxUnavailable pods
// available when the removed Deployment pods were all available, and ends with every
// pod in the CloneSet.
func TestSimulateMigrationKeepsAvailability(t *testing.T) {
	for total := int32(1); total <= 7; total++ {
		for mu := int32(0); mu <= total; mu++ {
			for surge := int32(0); surge <= 2; surge++ {
				if mu == 0 && surge == 0 {
					continue
				}
				s := migrationState{Total: total, MaxUnavailable: mu, MaxSurge: surge, Deployment: side(total, total), CloneSet: side(0, 0)}
				steps := simulateMigration(s)
				prevCS := int32(0)
				for _, st := range steps {
					// Right after the write, only the pods available before it count:
					// the remaining Deployment pods and the CloneSet pods already there.
					if avail := st.DeploymentReplicas + prevCS; avail < total-mu {
						t.Fatalf("total=%d mu=%d surge=%d: step %+v leaves %d available", total, mu, surge, st, avail)
					}
					if st.DeploymentReplicas+st.CloneSetReplicas > total+surge {
						t.Fatalf("total=%d mu=%d surge=%d: step %+v exceeds the surge", total, mu, surge, st)
					}
					prevCS = st.CloneSetReplicas
				}
				last := steps[len(steps)-1]
				if last.DeploymentReplicas != 0 || last.CloneSetReplicas != total {
					t.Fatalf("total=%d mu=%d surge=%d: ends at %+v", total, mu, surge, last)
				}
			}
		}
	}
}
