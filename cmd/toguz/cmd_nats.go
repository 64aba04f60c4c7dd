package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/toguz/toguz/internal/bus"
)

// runNats runs an embedded NATS server (internal/bus) until stopped: the
// bus of several `toguz serve -nats` nodes on one machine or a small site,
// without installing nats-server.
func runNats(ctx context.Context, e env) error {
	fs := newFlags(e, "nats", "", "Runs a NATS server in this process, for the nodes of `toguz serve -nats` to share\ntheir live games over; with -cluster-addr and -routes, one server of a NATS cluster\n(run one on each of three machines, and give the nodes every server's URL:\n-nats nats://a:4222,nats://b:4222,nats://c:4222). Stops on SIGTERM or SIGINT.")
	addr := fs.String("addr", "127.0.0.1:4222", "address to listen on (host:port; port 0 picks a free one)")
	clusterAddr := fs.String("cluster-addr", "", "join a NATS cluster: take the other servers' routes on this address (host:port; \"\": no cluster)")
	routes := fs.String("routes", "", "the other servers of the cluster: their -cluster-addr as nats://host:port, comma-separated\n(this server's own may be among them, so that every server runs with the same list)")
	name := fs.String("cluster-name", "toguz", "the cluster's name: the same on every server of it")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *routes != "" && *clusterAddr == "" {
		fs.Usage()
		return errUsage
	}
	c := bus.ClusterConfig{Name: *name, Addr: *clusterAddr}
	for r := range strings.SplitSeq(*routes, ",") {
		if r = strings.TrimSpace(r); r != "" {
			c.Routes = append(c.Routes, r)
		}
	}
	em, err := bus.StartClustered(*addr, c)
	if err != nil {
		return err
	}
	defer em.Close()
	fmt.Fprintf(e.stderr, "toguz nats: listening on %s\n", em.URL())
	if a := em.ClusterAddr(); a != "" {
		fmt.Fprintf(e.stderr, "toguz nats: cluster %s, routes on %s\n", *name, a)
	}
	<-ctx.Done()
	return nil
}
