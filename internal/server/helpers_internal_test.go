package server

import (
	"log/slog"

	"github.com/rootline-dev/rootline/internal/config"
	"github.com/rootline-dev/rootline/internal/store"
)

// offConfig is the configuration of a server under test: the defaults, no authentication.
func offConfig() config.Config {
	c, _ := config.Default(func(string) string { return "" })
	c.Auth = "off"
	return c
}

// quietDeps are a server's dependencies on st, its log discarded.
func quietDeps(st *store.Store) Deps {
	return StoreDeps(st, slog.New(slog.DiscardHandler))
}
