package server

import (
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/store"
)

// testAccounts returns the real accounts service with cheap argon2
// parameters and generous login limits.
func testAccounts(st *store.Store) Accounts {
	l := auth.DefaultLimits()
	l.LoginBurstIP, l.LockoutAfter = 1000, 1000
	a, err := auth.New(auth.Config{Store: st, Params: auth.Params{Memory: 64, Time: 1, Threads: 1}, Limits: &l})
	if err != nil {
		panic(err)
	}
	return AuthAccounts{A: a}
}
