package oidc

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Pending is what the caller keeps in a short-lived cookie between Start and Finish.
// None of it is secret from the person's own browser, but it must not be shared
// between browsers: it is what ties the callback to the browser that started.
type Pending struct {
	State    string // echoed by the provider in the callback; guards against login CSRF
	Nonce    string // must come back inside the ID token; guards against token replay
	Verifier string // PKCE code verifier; the provider saw only its S256 hash
}

// Identity is a person who signed in and is allowed in.
type Identity struct {
	// Subject is the provider's stable, unique ID for the person (the sub claim).
	Subject string
	// Email is the verified address, in lower case. Never empty: the allow lists
	// require it.
	Email string
	// Name is the person's name in Rootline: "oidc:" and the email address, e.g.
	// "oidc:alice@example.com". Local account names cannot contain ':', so it cannot
	// clash with them. (Were there no address, it would be "oidc:" and the
	// preferred_username, else the subject; today the allow lists make that impossible.)
	Name string
}

// NamePrefix begins every Identity.Name.
const NamePrefix = "oidc:"

// Start begins a sign-in. It returns the provider's authorization URL to redirect the
// browser to, and the Pending to keep until the callback. It cannot fail: crypto/rand
// does not return errors.
func (p *Provider) Start() (string, Pending) {
	pending := Pending{
		State:    rand.Text(),
		Nonce:    rand.Text(),
		Verifier: oauth2.GenerateVerifier(),
	}
	u := p.oauth.AuthCodeURL(pending.State,
		gooidc.Nonce(pending.Nonce),
		oauth2.S256ChallengeOption(pending.Verifier))
	return u, pending
}

// Finish completes a sign-in from the callback's query. It checks the state against
// pending, reports an error the provider sent, exchanges the code (with the PKCE
// verifier), verifies the ID token (signature, issuer, audience, expiry, nonce) and
// applies the allow lists. Errors match ErrState, ErrProvider, ErrExchange, ErrVerify
// or ErrNotAllowed; show [Message](err) to the person and log err.
func (p *Provider) Finish(ctx context.Context, pending Pending, query url.Values) (Identity, error) {
	// State first, so that only the browser that started the sign-in gets to see
	// an error description from the query.
	if !same(pending.State, query.Get("state")) {
		return Identity{}, &finishError{ErrState, msgState,
			errors.New("the callback's state is missing or differs from the one in the cookie")}
	}
	if code := query.Get("error"); code != "" {
		desc := query.Get("error_description")
		return Identity{}, &finishError{ErrProvider, providerMessage(code, desc),
			fmt.Errorf("%s: %s", code, desc)}
	}
	code := query.Get("code")
	if code == "" {
		return Identity{}, &finishError{ErrProvider, msgNoCode,
			errors.New("the callback has neither code nor error")}
	}

	ctx = gooidc.ClientContext(ctx, p.client)
	tok, err := p.oauth.Exchange(ctx, code, oauth2.VerifierOption(pending.Verifier))
	if err != nil {
		return Identity{}, &finishError{ErrExchange, msgExchange, err}
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok || raw == "" {
		return Identity{}, &finishError{ErrVerify, msgVerify, errors.New("the token response has no id_token")}
	}
	idt, err := p.verifier.Verify(ctx, raw)
	if err != nil {
		return Identity{}, &finishError{ErrVerify, msgVerify, err}
	}
	if !same(pending.Nonce, idt.Nonce) {
		return Identity{}, &finishError{ErrVerify, msgVerify, errors.New("the ID token's nonce differs from the one in the cookie")}
	}

	var c claims
	if err := idt.Claims(&c); err != nil {
		return Identity{}, &finishError{ErrVerify, msgVerify, fmt.Errorf("decode ID token claims: %w", err)}
	}
	email := normalize(c.Email)
	who := firstNonEmpty(email, c.PreferredUsername, idt.Subject)
	if err := p.allow.check(email, bool(c.EmailVerified)); err != nil {
		return Identity{}, &finishError{ErrNotAllowed, who + " is not allowed to sign in.", err}
	}
	return Identity{Subject: idt.Subject, Email: email, Name: NamePrefix + who}, nil
}

// same compares in constant time, and never lets two empty strings match: a missing
// cookie must not pair with a callback that lacks the value.
func same(want, got string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
