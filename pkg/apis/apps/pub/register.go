package pub

import "k8s.io/apimachinery/pkg/runtime/schema"

// SchemeGroupVersion names this package for generated apply configurations, which
// index every struct by group and version. "pub" is never served: no kind lives here.
var SchemeGroupVersion = schema.GroupVersion{Group: "apps.kruise.io", Version: "pub"}
