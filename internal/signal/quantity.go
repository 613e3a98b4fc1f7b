package signal

import (
	"math"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Bytes converts a quantity as written in a message ("1924152Ki", "7G", "471859200") to bytes,
// rounding a fraction up as resource.Quantity.Value does. Plain numbers are bytes. Negative
// values, as in "available: -1234Ki", are allowed. ok is false for text that is not a
// quantity and for values beyond int64.
func Bytes(q string) (int64, bool) {
	qty, ok := parseQuantity(q)
	if !ok || !fitsInt64(qty, 1) {
		return 0, false
	}
	return qty.Value(), true
}

// parseQuantity parses q with resource.ParseQuantity. Pasted messages sometimes carry
// human units with a trailing "B" ("24GB", "1GiB"), which ParseQuantity rejects; the "B" is
// dropped and the rest tried again.
func parseQuantity(q string) (resource.Quantity, bool) {
	q = strings.TrimSpace(q)
	if q == "" {
		return resource.Quantity{}, false
	}
	qty, err := resource.ParseQuantity(q)
	if err == nil {
		return qty, true
	}
	if trimmed, ok := strings.CutSuffix(q, "B"); ok && trimmed != "" {
		last := trimmed[len(trimmed)-1]
		if last < '0' || last > '9' {
			if qty, err := resource.ParseQuantity(trimmed); err == nil {
				return qty, true
			}
		}
	}
	return resource.Quantity{}, false
}

// fitsInt64 reports whether qty times scale fits in an int64, so that Value and MilliValue
// do not overflow silently.
func fitsInt64(qty resource.Quantity, scale int64) bool {
	limit := resource.NewQuantity(math.MaxInt64/scale, resource.DecimalSI)
	if qty.Cmp(*limit) > 0 {
		return false
	}
	limit.Neg()
	return qty.Cmp(*limit) >= 0
}
