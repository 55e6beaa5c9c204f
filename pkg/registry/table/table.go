// Package table builds server-side Table responses (what `kubectl get` prints) for
// Kruise workloads, with the same columns OpenKruise declares as printer columns.
package table

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metatable "k8s.io/apimachinery/pkg/api/meta/table"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Column is one printed column: its definition and how to read its cell from an object.
type Column struct {
	Definition metav1.TableColumnDefinition
	Cell       func(obj runtime.Object) interface{}
}

// Convertor turns objects (or lists) of one kind into Tables with fixed columns.
// NAME comes first and AGE is added where the columns ask for it, as kubectl expects.
type Convertor struct {
	Columns []Column
}

var _ rest.TableConvertor = Convertor{}

// Name is the first column of every table.
var Name = Column{
	Definition: metav1.TableColumnDefinition{Name: "Name", Type: "string", Format: "name",
		Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
	Cell: func(obj runtime.Object) interface{} {
		m, err := meta.Accessor(obj)
		if err != nil {
			return ""
		}
		return m.GetName()
	},
}

// Age prints the time since creation as kubectl does.
var Age = Column{
	Definition: metav1.TableColumnDefinition{Name: "Age", Type: "date",
		Description: metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]},
	Cell: func(obj runtime.Object) interface{} {
		m, err := meta.Accessor(obj)
		if err != nil {
			return "<unknown>"
		}
		return translateTimestampSince(m.GetCreationTimestamp())
	},
}

// Int32 is an integer column.
func Int32(name, description string, get func(obj runtime.Object) int32) Column {
	return Column{
		Definition: metav1.TableColumnDefinition{Name: name, Type: "integer", Description: description},
		Cell:       func(obj runtime.Object) interface{} { return int64(get(obj)) },
	}
}

// String is a string column.
func String(name, description string, get func(obj runtime.Object) string) Column {
	return Column{
		Definition: metav1.TableColumnDefinition{Name: name, Type: "string", Description: description},
		Cell:       func(obj runtime.Object) interface{} { return get(obj) },
	}
}

// Date is a time column printed as an age ("5m"), or <none> while unset, as kubectl
// prints an absent date column of a custom resource.
func Date(name, description string, get func(obj runtime.Object) *metav1.Time) Column {
	return Column{
		Definition: metav1.TableColumnDefinition{Name: name, Type: "date", Description: description},
		Cell: func(obj runtime.Object) interface{} {
			if t := get(obj); t != nil {
				return translateTimestampSince(*t)
			}
			return "<none>"
		},
	}
}

// Wide is a string column shown only with -o wide.
func Wide(name, description string, get func(obj runtime.Object) string) Column {
	return Column{
		Definition: metav1.TableColumnDefinition{Name: name, Type: "string", Priority: 1, Description: description},
		Cell:       func(obj runtime.Object) interface{} { return get(obj) },
	}
}

// ContainerNames joins the container names of a pod template.
func ContainerNames(t *corev1.PodTemplateSpec) string {
	names := make([]string, 0, len(t.Spec.Containers))
	for _, c := range t.Spec.Containers {
		names = append(names, c.Name)
	}
	return strings.Join(names, ",")
}

// ContainerImages joins the container images of a pod template.
func ContainerImages(t *corev1.PodTemplateSpec) string {
	images := make([]string, 0, len(t.Spec.Containers))
	for _, c := range t.Spec.Containers {
		images = append(images, c.Image)
	}
	return strings.Join(images, ",")
}

// ConvertToTable implements rest.TableConvertor.
func (c Convertor) ConvertToTable(ctx context.Context, object runtime.Object, tableOptions runtime.Object) (*metav1.Table, error) {
	table := &metav1.Table{}
	opts, ok := tableOptions.(*metav1.TableOptions)
	noHeaders := ok && opts != nil && opts.NoHeaders
	if !noHeaders {
		for _, col := range c.Columns {
			table.ColumnDefinitions = append(table.ColumnDefinitions, col.Definition)
		}
	}
	rows, err := metatable.MetaToTableRow(object, func(obj runtime.Object, _ metav1.Object, _, _ string) ([]interface{}, error) {
		cells := make([]interface{}, 0, len(c.Columns))
		for _, col := range c.Columns {
			cells = append(cells, col.Cell(obj))
		}
		return cells, nil
	})
	if err != nil {
		return nil, fmt.Errorf("building table rows: %w", err)
	}
	table.Rows = rows
	if m, err := meta.ListAccessor(object); err == nil {
		table.ResourceVersion = m.GetResourceVersion()
		table.Continue = m.GetContinue()
		table.RemainingItemCount = m.GetRemainingItemCount()
	} else if m, err := meta.CommonAccessor(object); err == nil {
		table.ResourceVersion = m.GetResourceVersion()
	}
	return table, nil
}

func translateTimestampSince(t metav1.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(time.Since(t.Time))
}
