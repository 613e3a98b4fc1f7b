package oidc

import (
	"encoding/json"
	"fmt"
	"strings"
)

// allowList decides who may sign in, by verified email address.
type allowList struct {
	emails  map[string]bool // lower case
	domains map[string]bool // lower case, without '@'
}

func newAllowList(emails, domains []string) (allowList, error) {
	a := allowList{emails: map[string]bool{}, domains: map[string]bool{}}
	for _, e := range emails {
		e = normalize(e)
		if e == "" {
			continue
		}
		local, domain, ok := strings.Cut(e, "@")
		if !ok || local == "" || domain == "" || strings.Contains(domain, "@") {
			return allowList{}, fmt.Errorf("oidc: allowed email %q is not an address like alice@example.com", e)
		}
		a.emails[e] = true
	}
	for _, d := range domains {
		d = strings.TrimPrefix(normalize(d), "@")
		if d == "" {
			continue
		}
		if strings.ContainsAny(d, "@/: ") {
			return allowList{}, fmt.Errorf("oidc: allowed domain %q is not a domain like example.com", d)
		}
		a.domains[d] = true
	}
	if len(a.emails) == 0 && len(a.domains) == 0 {
		return allowList{}, ErrNoAllowList
	}
	return a, nil
}

// check returns nil if the address may sign in, else the reason for the log.
//
// Both lists require email_verified, not only the domain list: an unverified address
// is just text the account holder typed in, and matching it even exactly is how
// multi-tenant providers have let strangers in (the "nOAuth" attacks on Entra ID).
func (a allowList) check(email string, verified bool) error {
	switch {
	case email == "":
		return fmt.Errorf("the provider sent no email address (is the email scope granted?)")
	case !verified:
		return fmt.Errorf("%s is not verified by the provider (email_verified is not true)", email)
	case a.emails[email]:
		return nil
	case a.domains[domainOf(email)]:
		return nil
	}
	return fmt.Errorf("%s matches no allowed email or domain", email)
}

func normalize(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func domainOf(email string) string {
	if i := strings.LastIndexByte(email, '@'); i >= 0 {
		return email[i+1:]
	}
	return ""
}

// claims are the ID token claims Finish reads, beyond those go-oidc checks.
type claims struct {
	Email             string   `json:"email"`
	EmailVerified     flexBool `json:"email_verified"`
	PreferredUsername string   `json:"preferred_username"`
}

// flexBool accepts true and "true": some providers (AWS Cognito, older ADFS) send
// email_verified as a string.
type flexBool bool

// UnmarshalJSON implements json.Unmarshaler.
func (b *flexBool) UnmarshalJSON(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	switch v := v.(type) {
	case bool:
		*b = flexBool(v)
	case string:
		*b = flexBool(strings.EqualFold(v, "true"))
	default:
		*b = false
	}
	return nil
}
