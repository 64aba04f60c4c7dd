package team

import (
	"context"
	"errors"
	"time"

	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/store"
)

// The leaders' messages are told off the request that sends them: the
// request keeps the message in the store (team_broadcasts) and wakes Run,
// which tells the members in the order of their ids, broadcastBatch at a
// time, recording after each batch the last member told. A team has up to
// MaxMembers (5,000) members, so a message is up to 5,000 notices: the
// pause between batches lets the notices' queue (notifications: 4,096,
// never blocking its sender, dropping when full) take them in.
//
// A worker records its progress only while it holds the message's lease
// (the store checks it): one that stalled past it stops, and the worker
// that took the message over goes on alone.
//
// Durability: a message is kept from the request on; a stop (clean or
// not) leaves it with its progress, and the next Run, on this node or
// another, goes on from the last batch recorded once the lease of the
// worker that held it is past. A clean stop loses nothing (Run returns
// before the notices' queue is drained into the store); a crash loses at
// most the notices of the batches still waiting in that in-memory queue,
// as it does every notice of the site, and may tell the members of the
// batch it was in twice.
const (
	broadcastBatch = 200
	broadcastPause = 100 * time.Millisecond
	broadcastLease = 30 * time.Second
	// broadcastPoll is how often Run looks for messages that no worker
	// holds (a node that stopped with one unfinished).
	broadcastPoll = 15 * time.Second
)

// Run tells the leaders' messages until ctx ends; the server runs it once
// per node.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(broadcastPoll)
	defer t.Stop()
	for {
		if err := s.tellPending(ctx); err != nil && ctx.Err() == nil {
			// The message keeps its progress; it is taken again once its
			// lease is past.
			s.log.Warn("team: the leaders' message", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-t.C:
		}
	}
}

// tellPending tells every message no worker holds, until none is left or
// ctx ends.
func (s *Service) tellPending(ctx context.Context) error {
	for ctx.Err() == nil {
		b, err := s.st.ClaimTeamBroadcast(ctx, broadcastLease)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.tellBroadcast(ctx, b); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// tellBroadcast tells b's members after b.After, batch by batch, and
// deletes b once all are told.
func (s *Service) tellBroadcast(ctx context.Context, b store.TeamBroadcast) error {
	after := b.After
	for {
		ids, err := s.st.TeamMemberIDsAfter(ctx, b.TeamID, after, broadcastBatch)
		if err != nil {
			return err
		}
		for _, to := range ids {
			if ctx.Err() != nil {
				break
			}
			if to != b.SenderID {
				if err := s.tell(ctx, notify.Notice{To: to, Actor: b.SenderID, Kind: notify.Team, Key: "team.notice.message",
					Args: []any{b.TeamName, b.SenderName, b.Body}, URL: "/team/" + b.TeamID}); err != nil {
					s.log.Warn("team: the leaders' message", "team", b.TeamID, "err", err) // the others are told
				}
			}
			after = to
		}
		done := len(ids) < broadcastBatch && ctx.Err() == nil
		// Recorded with a context of its own: a stop records where it got.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		err = s.st.TeamBroadcastTold(wctx, &b, after, broadcastLease, done)
		cancel()
		if errors.Is(err, store.ErrConflict) {
			return nil // this worker stalled past its lease: another goes on
		}
		if err != nil || done || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(broadcastPause):
		}
	}
}
