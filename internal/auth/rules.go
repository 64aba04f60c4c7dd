package auth

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of names and passwords.
const (
	MinNameLen     = 2
	MaxNameLen     = 20
	MinPasswordLen = 8
	MaxPasswordLen = 128 // bytes: argon2 hashes them all, so the cost is bounded
)

// guestPrefix starts the names the server gives guests ("Guest-…"); no
// account may take one, so that an account cannot pass for a guest.
const guestPrefix = "Guest-"

// ClosedPrefix starts the neutral names a closed account's games show
// (internal/privacy); no account may take one either.
const ClosedPrefix = "closed-"

// RuleError says which rule a name or a password breaks.
type RuleError struct {
	Field string // "name" or "password"
	Rule  string // the rule, in English
	// Kind and Args name the rule for a program: the server writes its
	// message in the user's language from them.
	Kind Rule
	Args []any
}

// Rule names a rule of ValidateName or ValidatePassword.
type Rule string

// The rules, and the Args of a RuleError that breaks them.
const (
	RuleNameUTF8       Rule = "name_utf8"
	RuleNameLength     Rule = "name_length" // MinNameLen, MaxNameLen, the name's length
	RuleNameStart      Rule = "name_start"
	RuleNameChar       Rule = "name_char"      // the character (a rune)
	RuleNameGuest      Rule = "name_guest"     // the guests' prefix
	RuleNameClosed     Rule = "name_closed"    // the closed accounts' prefix
	RulePasswordShort  Rule = "password_short" // MinPasswordLen
	RulePasswordLong   Rule = "password_long"  // MaxPasswordLen
	RulePasswordIsName Rule = "password_is_name"
)

func ruleError(field string, kind Rule, rule string, args ...any) *RuleError {
	return &RuleError{Field: field, Rule: rule, Kind: kind, Args: args}
}

func (e *RuleError) Error() string { return e.Field + ": " + e.Rule }

// ValidateName checks a user name: 2 to 20 characters, letters (any
// alphabet: Latin, Cyrillic, …), digits, '_' and '-', starting with a
// letter, and not the reserved guest prefix.
func ValidateName(name string) error {
	n := utf8.RuneCountInString(name)
	switch {
	case !utf8.ValidString(name):
		return ruleError("name", RuleNameUTF8, "must be valid UTF-8 text")
	case n < MinNameLen || n > MaxNameLen:
		return ruleError("name", RuleNameLength, fmt.Sprintf("must be %d to %d characters long, not %d", MinNameLen, MaxNameLen, n), MinNameLen, MaxNameLen, n)
	}
	for i, r := range name {
		switch {
		case i == 0 && !unicode.IsLetter(r):
			return ruleError("name", RuleNameStart, "must start with a letter")
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
		default:
			return ruleError("name", RuleNameChar, fmt.Sprintf("may hold only letters, digits, '_' and '-', not %q", r), string(r))
		}
	}
	if len(name) >= len(guestPrefix) && strings.EqualFold(name[:len(guestPrefix)], guestPrefix) {
		return ruleError("name", RuleNameGuest, fmt.Sprintf("must not start with %q, which marks guests", guestPrefix), guestPrefix)
	}
	if len(name) >= len(ClosedPrefix) && strings.EqualFold(name[:len(ClosedPrefix)], ClosedPrefix) {
		return ruleError("name", RuleNameClosed, fmt.Sprintf("must not start with %q, which marks closed accounts", ClosedPrefix), ClosedPrefix)
	}
	return nil
}

// ValidatePassword checks a password: 8 characters at least, 128 bytes at
// most, and not the name itself.
func ValidatePassword(password, name string) error {
	switch n := utf8.RuneCountInString(password); {
	case n < MinPasswordLen:
		return ruleError("password", RulePasswordShort, fmt.Sprintf("must be at least %d characters long", MinPasswordLen), MinPasswordLen)
	case len(password) > MaxPasswordLen:
		return ruleError("password", RulePasswordLong, fmt.Sprintf("must be at most %d bytes long", MaxPasswordLen), MaxPasswordLen)
	case strings.EqualFold(password, name):
		return ruleError("password", RulePasswordIsName, "must not be the name")
	}
	return nil
}
