package templates

import "context"

// Viewer is who is looking at a page, as every page needs it: the form token and the person
// signed in. The server puts it in the request's context; components read it from there, so
// that no form can be rendered without its token.
type Viewer struct {
	CSRF   string // the token every form posts back in its "csrf" field
	Person string // who is signed in; empty when no one is (authentication off, or a token)
}

type viewerKey struct{}

// WithViewer returns ctx carrying v.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// ViewerOf returns the viewer in ctx, or the zero Viewer.
func ViewerOf(ctx context.Context) Viewer {
	v, _ := ctx.Value(viewerKey{}).(Viewer)
	return v
}
