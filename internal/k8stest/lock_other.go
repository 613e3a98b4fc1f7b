//go:build !unix

package k8stest

import "context"

// lockFile does nothing where flock(2) is missing: concurrent builders are not serialised there,
// but the rename into place still keeps a half-built cache from being used.
func lockFile(context.Context, string, func(string, ...any)) (unlock func(), err error) {
	return func() {}, nil
}
