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

// RuleError says which rule a name or a password breaks.
type RuleError struct {
	Field string // "name" or "password"
	Rule  string
}

func (e *RuleError) Error() string { return e.Field + ": " + e.Rule }

// ValidateName checks a user name: 2 to 20 characters, letters (any
// alphabet: Latin, Cyrillic, …), digits, '_' and '-', starting with a
// letter, and not the reserved guest prefix.
func ValidateName(name string) error {
	n := utf8.RuneCountInString(name)
	switch {
	case !utf8.ValidString(name):
		return &RuleError{"name", "must be valid UTF-8 text"}
	case n < MinNameLen || n > MaxNameLen:
		return &RuleError{"name", fmt.Sprintf("must be %d to %d characters long, not %d", MinNameLen, MaxNameLen, n)}
	}
	for i, r := range name {
		switch {
		case i == 0 && !unicode.IsLetter(r):
			return &RuleError{"name", "must start with a letter"}
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
		default:
			return &RuleError{"name", fmt.Sprintf("may hold only letters, digits, '_' and '-', not %q", r)}
		}
	}
	if len(name) >= len(guestPrefix) && strings.EqualFold(name[:len(guestPrefix)], guestPrefix) {
		return &RuleError{"name", fmt.Sprintf("must not start with %q, which marks guests", guestPrefix)}
	}
	return nil
}

// ValidatePassword checks a password: 8 characters at least, 128 bytes at
// most, and not the name itself.
func ValidatePassword(password, name string) error {
	switch n := utf8.RuneCountInString(password); {
	case n < MinPasswordLen:
		return &RuleError{"password", fmt.Sprintf("must be at least %d characters long", MinPasswordLen)}
	case len(password) > MaxPasswordLen:
		return &RuleError{"password", fmt.Sprintf("must be at most %d bytes long", MaxPasswordLen)}
	case strings.EqualFold(password, name):
		return &RuleError{"password", "must not be the name"}
	}
	return nil
}
