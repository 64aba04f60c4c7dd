package server

import (
	"context"
	"strconv"

	"github.com/toguz/toguz/internal/forum"
	"github.com/toguz/toguz/internal/store"
)

// forumConfig is the forum's (internal/forum): the moderators' role, their
// mutes and kid mode from their services. Its Notify (the notices' Sender) and
// Member (a team's members: the teams' own service) are the community's and
// the teams' features'.
func (s *Server) forumConfig(st *store.Store) forum.Config {
	c := forum.Config{
		Store:     st,
		Moderator: s.cfg.Moderation.IsModerator,
		Kid: func(ctx context.Context, userID int64) bool {
			return s.privacy != nil && s.privacy.Kid(ctx, userID)
		},
		Muted: func(userID int64) bool {
			return s.cfg.Moderation.Muted("u:" + strconv.FormatInt(userID, 10))
		},
		Logger: s.log,
		Notify: senderOf(s.cfg.Notifications),
	}
	if s.teams != nil {
		c.Member = s.teams.Member
		c.TeamName = func(ctx context.Context, team string) string {
			t, _, err := s.teams.Team(ctx, team, 0)
			if err != nil {
				return ""
			}
			return t.Name
		}
	}
	return c
}
