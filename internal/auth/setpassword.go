package auth

import (
	"context"
)

// SetPassword validates password for the account name and stores its hash
// for user id (a change or a reset of the password; the caller ends the
// sessions). Errors: a *RuleError, ErrBusy.
func (s *Service) SetPassword(ctx context.Context, id int64, name, password string) error {
	if err := ValidatePassword(password, name); err != nil {
		return err
	}
	release, err := s.hashes.acquire(ctx)
	if err != nil {
		return err
	}
	hash, err := HashPassword(password, s.params, s.rand)
	release()
	if err != nil {
		return err
	}
	return s.store.SetPasswordHash(ctx, id, hash)
}

// TokenHash is what the store keeps of a session token: its sessions'
// key, by which internal/account lists and ends them.
func TokenHash(token string) string { return tokenHash(token) }
