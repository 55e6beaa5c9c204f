// Package controllers lists the controllers kruise-controller runs.
package controllers

import (
	"github.com/kruise-native/kruise-native/pkg/controllers/cloneset"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
)

// All are the controllers kruise-controller runs, in start order.
var All = []manager.NewFunc{cloneset.New}
