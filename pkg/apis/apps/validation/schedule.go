package validation

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	// The zone database is compiled in: whether a timeZone is accepted must not
	// depend on the tzdata of the host or image the server runs on.
	_ "time/tzdata"

	"github.com/robfig/cron/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// parseSchedule parses a standard cron expression as the cron controllers do
// (robfig/cron's ParseStandard), turning the parser's panics on odd input into errors.
func parseSchedule(schedule string) (s cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unparsable schedule %q: %v", schedule, r)
		}
	}()
	return cron.ParseStandard(schedule)
}

// validateSchedule checks a cron schedule as kube checks a CronJob's: it must parse,
// and the zone belongs in timeZone, not in a TZ= or CRON_TZ= prefix. An object
// stored with such a prefix (allowTZ, on update) may keep it, but not together with
// timeZone.
func validateSchedule(schedule string, allowTZ bool, timeZone *string, fldPath *field.Path) field.ErrorList {
	if schedule == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var allErrs field.ErrorList
	if _, err := parseSchedule(schedule); err != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, schedule, err.Error()))
	}
	hasTZ := strings.Contains(schedule, "TZ")
	switch {
	case hasTZ && !allowTZ:
		allErrs = append(allErrs, field.Invalid(fldPath, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	case hasTZ && timeZone != nil:
		allErrs = append(allErrs, field.Invalid(fldPath, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
	}
	return allErrs
}

// timeZonePart is one component of an IANA zone name; digits and '+' are allowed
// for the legacy names (Etc/GMT+5), as kube allows them.
var timeZonePart = regexp.MustCompile(`^[A-Za-z.\-_0-9+]{1,14}$`)

// validateTimeZone checks that an optional zone is an explicit IANA name that loads.
// Names are checked before loading so that a path ("../x") never reaches the loader.
func validateTimeZone(tz *string, fldPath *field.Path) field.ErrorList {
	if tz == nil {
		return nil
	}
	if *tz == "" {
		return field.ErrorList{field.Invalid(fldPath, *tz, "must be unset or a time zone name")}
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !timeZonePart.MatchString(part) {
			return field.ErrorList{field.Invalid(fldPath, *tz, "unknown time zone "+*tz)}
		}
	}
	if strings.EqualFold(*tz, "Local") {
		return field.ErrorList{field.Invalid(fldPath, *tz, "must be an explicit time zone as defined in https://www.iana.org/time-zones")}
	}
	if _, err := time.LoadLocation(*tz); err != nil {
		return field.ErrorList{field.Invalid(fldPath, *tz, err.Error())}
	}
	return nil
}
