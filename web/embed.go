// Package web holds Rootline's static assets (stylesheet, small scripts), embedded in the binary.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Static returns the assets, rooted at the static folder (served under /static/).
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil { // the folder is embedded above, so this cannot happen
		return static
	}
	return sub
}
