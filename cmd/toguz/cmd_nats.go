package main

import (
	"context"
	"fmt"

	"github.com/toguz/toguz/internal/bus"
)

// runNats runs an embedded NATS server (internal/bus) until stopped: the
// bus of several `toguz serve -nats` nodes on one machine or a small site,
// without installing nats-server.
func runNats(ctx context.Context, e env) error {
	fs := newFlags(e, "nats", "", "Runs a NATS server in this process, for the nodes of `toguz serve -nats` to share\ntheir live games over. Stops on SIGTERM or SIGINT.")
	addr := fs.String("addr", "127.0.0.1:4222", "address to listen on (host:port; port 0 picks a free one)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	em, err := bus.StartEmbedded(*addr)
	if err != nil {
		return err
	}
	defer em.Close()
	fmt.Fprintf(e.stderr, "toguz nats: listening on %s\n", em.URL())
	<-ctx.Done()
	return nil
}
