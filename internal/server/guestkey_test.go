package server

import "testing"

// TestGuestKeyFile: the guest key lies beside an SQLite file or where
// GuestKeyFile says (on PostgreSQL without GuestKeyFile it is kept in the
// database: store's TestSecret).
func TestGuestKeyFile(t *testing.T) {
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{DB: "toguz.db"}, "toguz.db.guestkey"},
		{Options{DB: "/var/lib/toguz/toguz.db"}, "/var/lib/toguz/toguz.db.guestkey"},
		{Options{DB: "postgresql://db/toguz", GuestKeyFile: "/etc/toguz/guest.key"}, "/etc/toguz/guest.key"},
	} {
		if got := guestKeyFile(tt.opts); got != tt.want {
			t.Errorf("guestKeyFile(%+v) = %q, want %q", tt.opts, got, tt.want)
		}
	}
}
