// Package uniteddeployment holds the UnitedDeployment rules that the API server's
// validation and the controller share: how spec.replicas is divided between subsets.
package uniteddeployment
