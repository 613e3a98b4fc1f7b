package server

import (
	"testing"

	"github.com/rootline-dev/rootline/internal/analysis"
)

// TestObjectText names objects for people, a controller whose kind the input did not say by
// its namespace and name alone.
func TestObjectText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		o    analysis.ObjectRef
		want string
	}{
		{analysis.ObjectRef{Kind: "Pod", Namespace: "prod", Name: "web-1"}, "Pod prod/web-1"},
		{analysis.ObjectRef{Kind: "Node", Name: "n-1"}, "Node n-1"},
		{analysis.ObjectRef{Namespace: "infra", Name: "agent"}, "infra/agent"},
	} {
		if got := objectText(tt.o); got != tt.want {
			t.Errorf("objectText(%+v) = %q, want %q", tt.o, got, tt.want)
		}
	}
}
