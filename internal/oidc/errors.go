package oidc

import (
	"errors"
	"strings"
)

// Errors from Finish match one of these with errors.Is. The error's text is for the log
// (it may hold the provider's answer); [Message] gives the sentence for the person.
var (
	// ErrState: the callback's state is missing or does not match the Pending, because
	// the cookie expired, the sign-in was started in another tab, or the callback was forged.
	ErrState = errors.New("sign-in state does not match")
	// ErrProvider: the provider redirected back with ?error=… (the person refused
	// consent, or the provider refused them), or without a code.
	ErrProvider = errors.New("the identity provider returned an error")
	// ErrExchange: the token endpoint refused the code or could not be reached.
	ErrExchange = errors.New("code exchange failed")
	// ErrVerify: the ID token is missing, or its signature, issuer, audience, expiry or
	// nonce is wrong.
	ErrVerify = errors.New("ID token verification failed")
	// ErrNotAllowed: the person signed in at the provider but is on no allow list, or
	// the provider did not vouch for their address.
	ErrNotAllowed = errors.New("not allowed to sign in")
)

// finishError is what Finish returns: a kind to match, a message for the person, and
// the cause for the log.
type finishError struct {
	kind  error  // one of the Err… sentinels
	msg   string // safe and clear for the person signing in
	cause error  // details for the log
}

func (e *finishError) Error() string {
	return "oidc: " + e.kind.Error() + ": " + e.cause.Error()
}

func (e *finishError) Is(target error) bool { return target == e.kind }

func (e *finishError) Unwrap() error { return e.cause }

// Message returns a sentence about err that can be shown to the person signing in, e.g.
// "alice@other.com is not allowed to sign in." It holds no secrets or internal details;
// log err itself for those. It returns "" for nil, and a generic sentence for errors
// that did not come from Finish.
func Message(err error) string {
	if err == nil {
		return ""
	}
	if fe, ok := errors.AsType[*finishError](err); ok {
		return fe.msg
	}
	return "Sign-in failed. Please try again."
}

// Messages for the person; ErrNotAllowed and ErrProvider build theirs from details.
const (
	msgState    = "The sign-in expired or was started in another tab. Please try again."
	msgExchange = "The identity provider did not accept the sign-in. Please try again."
	msgVerify   = "The identity provider's answer could not be verified. Please try again."
	msgNoCode   = "The identity provider's answer was incomplete. Please try again."
)

// providerMessage describes an ?error= redirect (RFC 6749 section 4.1.2.1). The
// description comes from the provider by way of the browser, so it is shortened; the
// state check before it means a third party cannot choose it.
func providerMessage(code, description string) string {
	if code == "access_denied" && description == "" {
		return "The sign-in was refused at the identity provider."
	}
	msg := "The identity provider refused the sign-in (" + code
	if description = strings.TrimSpace(description); description != "" {
		if r := []rune(description); len(r) > 200 {
			description = string(r[:200]) + "…"
		}
		msg += ": " + description
	}
	return msg + ")."
}
