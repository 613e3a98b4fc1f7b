package server

import "context"

// HoldBudget takes cost bytes of the server's memory budget, as an upload being decoded does,
// until release: for tests of what waits for it.
func (s *Server) HoldBudget(ctx context.Context, cost int64) (release func(), err error) {
	return s.budget.acquire(ctx, cost)
}

// SpoolDir is the folder the server receives uploads into.
func (s *Server) SpoolDir() string { return s.spoolDir() }
