// Package notify is how a feature tells a person that something happened
// to him: a challenge, his move in a correspondence game, an event about
// to start, an invitation, a forum reply, a message.
//
// A feature only builds a Notice and hands it to a Sender; the Sender
// (the community's notification service) decides the rest: whether the
// person turned that kind off, whether the actor is blocked, storing it in
// his list with its unread mark, pushing it live over his open websockets,
// as Web Push to the installed app and by e-mail when he asked for it.
//
// Invariants: a Notice names its text by a catalog key and plain
// arguments, never a rendered sentence, so that each person reads it in
// his own language; Send never blocks a request on a network (push and
// mail are queued); a Sender may drop a Notice (turned off, blocked, over
// a bound) and says so only in its log, never to the actor.
package notify

import "context"

// Kind is what a notice is about; each kind can be turned off.
type Kind string

// The kinds of notices.
const (
	Challenge  Kind = "challenge"   // a direct challenge to a game
	YourMove   Kind = "your_move"   // your move in a correspondence game
	EventSoon  Kind = "event_soon"  // an event you entered starts soon
	Invitation Kind = "invitation"  // to a study, a class or a team
	ForumReply Kind = "forum_reply" // a reply in a topic you wrote in
	Message    Kind = "message"     // a private message
	Team       Kind = "team"        // a team's leaders wrote to its members
)

// Kinds lists every kind, in the settings page's order.
var Kinds = []Kind{Challenge, YourMove, EventSoon, Invitation, ForumReply, Message, Team}

// Notice is one thing to tell one account.
type Notice struct {
	To    int64  // the account told
	Actor int64  // the account that caused it; 0: the site
	Kind  Kind   //
	Key   string // the catalog key of its text (en/…json), with Args as its arguments
	Args  []any  // plain values: names, titles, numbers
	URL   string // the site path it leads to, e.g. /team/abc or /forum/topic/12
}

// Sender takes notices. Send returns an error only when the notice could
// not be kept (the store failed), never because it was dropped.
type Sender interface {
	Send(ctx context.Context, n Notice) error
}
