package store

import (
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/rating"
)

// TestSocial: the community's tables on both backends: notices (listed,
// counted, marked, pruned), their choices, push subscriptions (bounded,
// moved, dropped), follows and friends, messages and their bounds,
// conversations, reports, and a player's activity.
func TestSocial(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b, c := mustUser(t, s, "Abai"), mustUser(t, s, "Bolat"), mustUser(t, s, "Dana")

		for i := range MaxNotifications + 2 {
			if _, err := s.AddNotification(ctx, Notification{UserID: a.ID, ActorID: b.ID, Kind: "message", Key: "k", Args: `["x"]`, URL: "/inbox/Bolat"}); err != nil {
				t.Fatal(i, err)
			}
		}
		if ns, err := s.Notifications(ctx, a.ID, MaxNotifications+10, 0); err != nil || len(ns) != MaxNotifications {
			t.Fatalf("kept %d, %v", len(ns), err)
		}
		if n, err := s.UnreadNotifications(ctx, a.ID, 100); err != nil || n != 100 {
			t.Errorf("unread %d %v", n, err)
		}
		ns, _ := s.Notifications(ctx, a.ID, 2, 0)
		if n, err := s.MarkNotificationsRead(ctx, a.ID, ns[0].ID); err != nil || n != 1 {
			t.Errorf("mark one %d %v", n, err)
		}
		if n, err := s.MarkNotificationsReadAt(ctx, a.ID, "/inbox/Bolat"); err != nil || n != MaxNotifications-1 {
			t.Errorf("mark at %d %v", n, err)
		}
		if n, _ := s.UnreadNotifications(ctx, a.ID, 100); n != 0 {
			t.Errorf("unread after %d", n)
		}
		if err := s.SetNotifyPrefs(ctx, a.ID, map[string]NotifyPref{"message": {Mail: true}, "challenge": {Site: true}}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetNotifyPrefs(ctx, a.ID, map[string]NotifyPref{"message": {Push: true}}); err != nil {
			t.Fatal(err)
		}
		if p, err := s.NotifyPrefs(ctx, a.ID); err != nil || p["message"] != (NotifyPref{Push: true}) || p["challenge"] != (NotifyPref{Site: true}) {
			t.Errorf("prefs %v %v", p, err)
		}

		for i := range MaxPushSubscriptions + 1 {
			if err := s.AddPushSubscription(ctx, PushSubscription{UserID: a.ID, Endpoint: "https://push.example/" + string(rune('a'+i)), P256DH: "k", Auth: "s"}); err != nil {
				t.Fatal(err)
			}
		}
		subs, _ := s.PushSubscriptions(ctx, a.ID)
		if len(subs) != MaxPushSubscriptions || subs[0].Endpoint != "https://push.example/b" {
			t.Errorf("subscriptions %+v", subs)
		}
		if err := s.AddPushSubscription(ctx, PushSubscription{UserID: b.ID, Endpoint: "https://push.example/b", P256DH: "k2", Auth: "s2"}); err != nil {
			t.Fatal(err)
		}
		if subs, _ := s.PushSubscriptions(ctx, b.ID); len(subs) != 1 || subs[0].P256DH != "k2" {
			t.Errorf("moved %+v", subs)
		}
		if err := s.DeletePushSubscription(ctx, a.ID, "https://push.example/b"); err != nil {
			t.Fatal(err)
		}
		if subs, _ := s.PushSubscriptions(ctx, b.ID); len(subs) != 1 {
			t.Error("another account's unsubscribe took it")
		}
		if err := s.DeletePushSubscription(ctx, 0, "https://push.example/b"); err != nil {
			t.Fatal(err)
		}
		if subs, _ := s.PushSubscriptions(ctx, b.ID); len(subs) != 0 {
			t.Error("a gone endpoint stayed")
		}

		for _, f := range [][2]int64{{a.ID, b.ID}, {a.ID, c.ID}, {b.ID, a.ID}, {a.ID, b.ID}} {
			if err := s.Follow(ctx, f[0], f[1]); err != nil {
				t.Fatal(err)
			}
		}
		if fr, _ := s.Friends(ctx, a.ID, b.ID); !fr {
			t.Error("a and b are friends")
		}
		if fr, _ := s.Friends(ctx, a.ID, c.ID); fr {
			t.Error("a and c are friends")
		}
		if fs, _ := s.Following(ctx, a.ID, 10, 0); len(fs) != 2 || fs[0].Name != "Bolat" {
			t.Errorf("following %+v", fs)
		}
		if fs, _ := s.Followers(ctx, a.ID, 10, 0); len(fs) != 1 || fs[0].Name != "Bolat" {
			t.Errorf("followers %+v", fs)
		}
		if f1, f2, _ := s.FollowCounts(ctx, a.ID); f1 != 2 || f2 != 1 {
			t.Errorf("counts %d %d", f1, f2)
		}
		if err := s.Unfollow(ctx, a.ID, c.ID); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.Follows(ctx, a.ID, c.ID); ok {
			t.Error("still follows")
		}

		lim := MessageLimits{PerDay: 3, NewPeers: 1, PerAddr: 10}
		if _, err := s.AddMessage(ctx, Message{SenderID: a.ID, RecipientID: b.ID, Body: "Сәлем", Addr: "x"}, lim); err != nil {
			t.Fatal(err)
		}
		var le *ErrMessageLimit
		if _, err := s.AddMessage(ctx, Message{SenderID: a.ID, RecipientID: c.ID, Body: "hi"}, lim); !errors.As(err, &le) || le.Which != "peers" {
			t.Errorf("a second new peer: %v", err)
		}
		if _, err := s.AddMessage(ctx, Message{SenderID: b.ID, RecipientID: a.ID, Body: "Иә"}, MessageLimits{}); err != nil {
			t.Fatal(err)
		}
		cs, err := s.Conversations(ctx, a.ID, 10, 0)
		if err != nil || len(cs) != 1 || cs[0].OtherName != "Bolat" || cs[0].Last.Body != "Иә" || cs[0].Unread != 1 {
			t.Errorf("conversations %+v %v", cs, err)
		}
		if ms, _ := s.Thread(ctx, b.ID, a.ID, 10, 0); len(ms) != 2 || ms[0].Body != "Иә" {
			t.Errorf("thread %+v", ms)
		}
		if err := s.ReportConversation(ctx, b.ID, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.ReportConversation(ctx, b.ID, a.ID); err != nil {
			t.Fatal(err)
		}
		if rs, _ := s.ReportedConversations(ctx, 10, 0); len(rs) != 1 || rs[0].ReporterName != "Bolat" || rs[0].TargetName != "Abai" {
			t.Errorf("reported %+v", rs)
		}

		if _, err := s.RecordPuzzle(ctx, a.ID, "p1", true, rating.Default()); err != nil {
			t.Fatal(err)
		}
		acts, err := s.ActivityOf(ctx, a.ID, t0.Add(-time.Hour), t0.Add(time.Hour))
		if err != nil || len(acts) != 1 || acts[0].Kind != "puzzle_solved" {
			t.Errorf("activity %+v %v", acts, err)
		}
	})
}
