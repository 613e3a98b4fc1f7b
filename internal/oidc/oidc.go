// Package oidc signs people in to Rootline's web pages through an OpenID Connect
// provider (Google, Keycloak, Dex, Okta, Entra ID, …), as an optional alternative to
// local accounts.
//
// Rootline uses it in three steps. At start-up, cmd/rootline calls [NewLazy] once if an
// OpenID Connect issuer is configured: a wrong configuration stops the server with a clear
// error, and discovery ([New]) runs when a sign-in first needs it (and once at start, to log
// whether the provider answers), so that a provider that is down stops only sign-in. When a person clicks "Sign in
// with …", internal/server calls [Provider.Start], keeps the returned [Pending] in a
// short-lived cookie (minutes; HttpOnly, Secure, SameSite=Lax: the callback is a top-level
// navigation from the provider's site, which SameSite=Strict would strip) and redirects
// the browser to the returned URL. On /login/oidc/callback it calls [Provider.Finish]
// with that cookie's Pending and the request's query, deletes the cookie, and on success
// starts a session for [Identity.Name]. On failure, [Message] gives the sentence to show
// the person and the error itself is what to log.
//
// Nobody is let in just because the provider knows them: [Config] must name allowed
// addresses or domains, and both kinds of match need the provider to vouch for the
// address (email_verified). Only the ID token is used; the userinfo endpoint is not
// called, and no provider tokens are kept after Finish.
package oidc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// httpTimeout bounds each request to the provider (discovery, keys, code exchange), so a
// hung provider cannot hold a sign-in, or start-up, for ever.
const httpTimeout = 10 * time.Second

// Config configures a Provider. Rootline's config package fills it from the
// ROOTLINE_OIDC_* environment variables.
type Config struct {
	Issuer       string // e.g. https://accounts.google.com; discovery is at Issuer + /.well-known/openid-configuration
	ClientID     string
	ClientSecret string
	RedirectURL  string // e.g. https://rootline.example.com/login/oidc/callback, registered at the provider

	// AllowedEmails are exact addresses, compared case-insensitively.
	AllowedEmails []string
	// AllowedDomains let in every address in these domains, e.g. example.com. Exact match:
	// example.com does not let in a@eu.example.com.
	AllowedDomains []string

	// Scopes requested; nil means openid, email and profile. openid and email are
	// always added, since the allow lists need the address.
	Scopes []string
}

// Provider is a discovered OpenID Connect provider that Rootline may send people to.
// It is safe for concurrent use.
type Provider struct {
	oauth    oauth2.Config
	verifier *gooidc.IDTokenVerifier
	client   *http.Client
	allow    allowList
}

// New checks cfg and runs discovery against cfg.Issuer. The error names the issuer and
// the cause. It refuses a configuration with empty allow lists, rather than letting in
// anyone who has an account at the provider (with Google, that is everyone).
func New(ctx context.Context, cfg Config) (*Provider, error) {
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	allow, err := newAllowList(cfg.AllowedEmails, cfg.AllowedDomains)
	if err != nil {
		return nil, err
	}

	client := &http.Client{Timeout: httpTimeout}
	// go-oidc keeps this client for fetching the signing keys later, too.
	op, err := gooidc.NewProvider(gooidc.ClientContext(ctx, client), cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("oidc: discover issuer %s: %w", cfg.Issuer, err)
	}

	return &Provider{
		oauth: oauth2.Config{
			ClientID:     cfg.ClientID,
			ClientSecret: cfg.ClientSecret,
			RedirectURL:  cfg.RedirectURL,
			Endpoint:     op.Endpoint(),
			Scopes:       scopes(cfg.Scopes),
		},
		// The verifier checks the signature, issuer, audience (ClientID) and expiry;
		// Finish checks the nonce.
		verifier: op.Verifier(&gooidc.Config{ClientID: cfg.ClientID}),
		client:   client,
		allow:    allow,
	}, nil
}

func checkConfig(cfg Config) error {
	for _, f := range []struct{ name, value string }{
		{"issuer", cfg.Issuer},
		{"client ID", cfg.ClientID},
		// Rootline is a server-side (confidential) client; an empty secret is
		// almost always a forgotten setting, better reported now than at first sign-in.
		{"client secret", cfg.ClientSecret},
		{"redirect URL", cfg.RedirectURL},
	} {
		if strings.TrimSpace(f.value) == "" {
			return fmt.Errorf("oidc: the %s is not set", f.name)
		}
	}
	for _, f := range []struct{ name, value string }{
		{"issuer", cfg.Issuer},
		{"redirect URL", cfg.RedirectURL},
	} {
		u, err := url.Parse(f.value)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("oidc: the %s %q is not an absolute http(s) URL", f.name, f.value)
		}
	}
	return nil
}

// scopes returns the requested scopes with openid and email present exactly once.
func scopes(requested []string) []string {
	if requested == nil {
		requested = []string{gooidc.ScopeOpenID, "email", "profile"}
	}
	out := []string{gooidc.ScopeOpenID, "email"}
	for _, s := range requested {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// ErrNoAllowList is returned by New when both allow lists are empty.
var ErrNoAllowList = errors.New("oidc: ROOTLINE_OIDC_ALLOWED_EMAILS or ROOTLINE_OIDC_ALLOWED_DOMAINS must be set, " +
	"otherwise anyone with an account at the provider could sign in")
