package oidc

import (
	"context"
	"errors"
	"net/url"
	"sync"
	"time"
)

// ErrUnavailable is a provider that could not be discovered (its issuer unreachable, or not
// answering discovery): sign-in through it waits until it can be.
var ErrUnavailable = errors.New("the identity provider cannot be reached")

// msgUnavailable is what the person signing in reads while the provider cannot be reached.
const msgUnavailable = "The identity provider cannot be reached just now. Please try again in a minute."

// retryAfter is how long a failed discovery is remembered before a sign-in tries again: a
// provider that is down is not asked at every click.
const retryAfter = 30 * time.Second

// Lazy is a Provider discovered when it is first needed, so that a provider down when
// Rootline starts stops nothing but sign-in through it: the server, its API and its tokens
// work, and sign-in answers ErrUnavailable until discovery succeeds (tried again at most every
// 30 seconds). Its configuration is checked at once, as New checks it. Safe for concurrent use.
type Lazy struct {
	cfg Config

	mu      sync.Mutex
	p       *Provider
	failed  time.Time
	lastErr error
}

// NewLazy checks cfg (the errors New gives for a configuration) and returns a Lazy that
// discovers the provider on first use.
func NewLazy(cfg Config) (*Lazy, error) {
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	if _, err := newAllowList(cfg.AllowedEmails, cfg.AllowedDomains); err != nil {
		return nil, err
	}
	return &Lazy{cfg: cfg}, nil
}

// Provider is the discovered provider, discovering it now if it has not been and no attempt
// failed in the last 30 seconds. Discovery does not stop with ctx's cancellation (go-oidc
// keeps its context to fetch the signing keys later), only with its own deadline.
func (l *Lazy) Provider(ctx context.Context) (*Provider, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.p != nil {
		return l.p, nil
	}
	if l.lastErr != nil && time.Since(l.failed) < retryAfter {
		return nil, &finishError{ErrUnavailable, msgUnavailable, l.lastErr}
	}
	p, err := New(context.WithoutCancel(ctx), l.cfg)
	if err != nil {
		l.failed, l.lastErr = time.Now(), err
		return nil, &finishError{ErrUnavailable, msgUnavailable, err}
	}
	l.p, l.lastErr = p, nil
	return p, nil
}

// Start is Provider.Start once the provider is discovered; ErrUnavailable before.
func (l *Lazy) Start(ctx context.Context) (string, Pending, error) {
	p, err := l.Provider(ctx)
	if err != nil {
		return "", Pending{}, err
	}
	to, pending := p.Start()
	return to, pending, nil
}

// Finish is Provider.Finish once the provider is discovered; ErrUnavailable before.
func (l *Lazy) Finish(ctx context.Context, pending Pending, query url.Values) (Identity, error) {
	p, err := l.Provider(ctx)
	if err != nil {
		return Identity{}, err
	}
	return p.Finish(ctx, pending, query)
}
