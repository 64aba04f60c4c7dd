package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/rating"
)

// Team is a club or a team (internal/team).
type Team struct {
	ID          string
	Name        string
	Description string
	JoinMode    string // open, request, invite
	ClassID     string // the class it was made of; "" when none
	CreatedBy   int64
	Created     time.Time
	Members     int
}

// TeamMember is a member of a team with his ratings (Games 0: none in
// that category) in the categories a team page shows.
type TeamMember struct {
	UserID int64
	Name   string
	Role   string // leader, coach, member
	Joined time.Time
	Perfs  [3]Perf // blitz, rapid, classical
}

// TeamPerfs are the categories TeamMember.Perfs holds, in order.
var TeamPerfs = [3]rating.Category{rating.Blitz, rating.Rapid, rating.Classical}

// TeamRequest is a request to join a team, or an invitation to one.
type TeamRequest struct {
	TeamID   string
	TeamName string
	UserID   int64
	Name     string // the account that asks, or is invited
	Message  string
	By       string // who invited; "" for a request
	Created  time.Time
}

// TeamBounds are the bounds a team's writes are checked against, given by
// the caller (internal/team).
type TeamBounds struct {
	Joined  int // teams one account is a member of
	Members int // members of one team
	Pending int // requests, or invitations, waiting at one team
}

// teamWriteWindow is how far back team_writes counts.
const teamWriteWindow = 24 * time.Hour

// countWrite records a bounded write of kind by user, or fails with
// ErrLimit when he made perDay of them in the last day.
func (s *Store) countWrite(ctx context.Context, tx *sql.Tx, userID int64, kind string, perDay int) error {
	now := s.now()
	since := ms(now.Add(-teamWriteWindow))
	if _, err := tx.ExecContext(ctx, `DELETE FROM team_writes WHERE user_id = $1 AND at_ms < $2`, userID, since); err != nil {
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM team_writes WHERE user_id = $1 AND kind = $2`, userID, kind).Scan(&n); err != nil {
		return err
	}
	if n >= perDay {
		return fmt.Errorf("store: %d %s today: %w", n, kind, ErrLimit)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO team_writes (user_id, kind, at_ms) VALUES ($1, $2, $3)`, userID, kind, ms(now))
	return err
}

// CountTeamWrite records a write of kind by user (a leaders' message),
// ErrLimit when he made perDay of them in the last day.
func (s *Store) CountTeamWrite(ctx context.Context, userID int64, kind string, perDay int) error {
	return s.write(ctx, func(tx *sql.Tx) error { return s.countWrite(ctx, tx, userID, kind, perDay) })
}

// CreateTeam stores team t with its creator as its leader; the creator
// may create perDay teams a day and be a member of b.Joined (ErrLimit).
func (s *Store) CreateTeam(ctx context.Context, t Team, perDay int, b TeamBounds) (Team, error) {
	id, err := s.newID()
	if err != nil {
		return Team{}, err
	}
	t.ID, t.Created, t.Members = id, s.now().UTC().Truncate(time.Millisecond), 1
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := s.countWrite(ctx, tx, t.CreatedBy, "create", perDay); err != nil {
			return err
		}
		if err := joinedBound(ctx, tx, t.CreatedBy, b.Joined); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO teams (id, name, name_key, description, join_mode, class_id, created_by, created_ms, members)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1)`, id, t.Name, strings.ToLower(t.Name), t.Description, t.JoinMode, t.ClassID, t.CreatedBy, ms(t.Created)); err != nil {
			return fmt.Errorf("store: create team: %w", err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO team_members (team_id, user_id, role, joined_ms) VALUES ($1, $2, 'leader', $3)`, id, t.CreatedBy, ms(t.Created))
		return err
	})
	return t, err
}

func joinedBound(ctx context.Context, tx *sql.Tx, userID int64, max int) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM team_members WHERE user_id = $1`, userID).Scan(&n); err != nil {
		return err
	}
	if n >= max {
		return fmt.Errorf("store: member of %d teams: %w", n, ErrLimit)
	}
	return nil
}

const teamColumns = `t.id, t.name, t.description, t.join_mode, t.class_id, t.created_by, t.created_ms, t.members`

func (s *Store) teams(ctx context.Context, q string, args ...any) ([]Team, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: teams: %w", err)
	}
	defer rows.Close()
	var out []Team
	for rows.Next() {
		var t Team
		var created int64
		if err := rows.Scan(&t.ID, &t.Name, &t.Description, &t.JoinMode, &t.ClassID, &t.CreatedBy, &created, &t.Members); err != nil {
			return nil, err
		}
		t.Created = fromMS(created)
		out = append(out, t)
	}
	return out, rows.Err()
}

// GetTeam returns team id (ErrNotFound when none).
func (s *Store) GetTeam(ctx context.Context, id string) (Team, error) {
	ts, err := s.teams(ctx, `SELECT `+teamColumns+` FROM teams t WHERE t.id = $1`, id)
	if err != nil {
		return Team{}, err
	}
	if len(ts) == 0 {
		return Team{}, fmt.Errorf("store: team %s: %w", id, ErrNotFound)
	}
	return ts[0], nil
}

// TeamOfClass returns the team made of class id (ErrNotFound when none).
func (s *Store) TeamOfClass(ctx context.Context, class string) (Team, error) {
	ts, err := s.teams(ctx, `SELECT `+teamColumns+` FROM teams t WHERE t.class_id = $1 ORDER BY t.created_ms LIMIT 1`, class)
	if err != nil {
		return Team{}, err
	}
	if len(ts) == 0 {
		return Team{}, fmt.Errorf("store: team of class %s: %w", class, ErrNotFound)
	}
	return ts[0], nil
}

// likeEscape escapes LIKE's wildcards in s (the escape character is \).
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Teams returns limit teams from offset, the largest first, those whose
// name contains query (regardless of case) when it is not "".
func (s *Store) Teams(ctx context.Context, query string, offset, limit int) ([]Team, error) {
	return s.teams(ctx, `SELECT `+teamColumns+` FROM teams t WHERE t.name_key LIKE $1 ESCAPE '\'
		ORDER BY t.members DESC, t.created_ms DESC, t.id LIMIT $2 OFFSET $3`, "%"+likeEscape(strings.ToLower(query))+"%", limit, offset)
}

// TeamsOf returns the teams user id is a member of, the largest first,
// with his role in each.
func (s *Store) TeamsOf(ctx context.Context, userID int64, offset, limit int) ([]Team, []string, error) {
	ts, err := s.teams(ctx, `SELECT `+teamColumns+` FROM teams t JOIN team_members m ON m.team_id = t.id AND m.user_id = $1
		ORDER BY t.members DESC, t.created_ms DESC, t.id LIMIT $2 OFFSET $3`, userID, limit, offset)
	if err != nil {
		return nil, nil, err
	}
	roles := make([]string, len(ts))
	for i, t := range ts {
		if roles[i], err = s.TeamRole(ctx, t.ID, userID); err != nil {
			return nil, nil, err
		}
	}
	return ts, roles, nil
}

// TeamRole returns user id's role in team ("" when he is no member).
func (s *Store) TeamRole(ctx context.Context, team string, userID int64) (string, error) {
	var role string
	err := s.r.QueryRowContext(ctx, `SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, team, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return role, err
}

// TeamMembers returns limit members of team from offset: the leaders,
// then the coaches, then the members, each by name.
func (s *Store) TeamMembers(ctx context.Context, team string, offset, limit int) ([]TeamMember, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT m.user_id, u.name, m.role, m.joined_ms,
		COALESCE(b.rating, 0), COALESCE(b.rd, 0), COALESCE(b.games, 0),
		COALESCE(r.rating, 0), COALESCE(r.rd, 0), COALESCE(r.games, 0),
		COALESCE(c.rating, 0), COALESCE(c.rd, 0), COALESCE(c.games, 0)
		FROM team_members m JOIN users u ON u.id = m.user_id
		LEFT JOIN ratings b ON b.user_id = m.user_id AND b.category = $2
		LEFT JOIN ratings r ON r.user_id = m.user_id AND r.category = $3
		LEFT JOIN ratings c ON c.user_id = m.user_id AND c.category = $4
		WHERE m.team_id = $1
		ORDER BY CASE m.role WHEN 'leader' THEN 0 WHEN 'coach' THEN 1 ELSE 2 END, u.name_key LIMIT $5 OFFSET $6`,
		team, TeamPerfs[0].String(), TeamPerfs[1].String(), TeamPerfs[2].String(), limit, offset)
	if err != nil {
		return nil, fmt.Errorf("store: members of team %s: %w", team, err)
	}
	defer rows.Close()
	var out []TeamMember
	for rows.Next() {
		var m TeamMember
		var joined int64
		p := &m.Perfs
		if err := rows.Scan(&m.UserID, &m.Name, &m.Role, &joined,
			&p[0].Rating.Rating, &p[0].RD, &p[0].Games, &p[1].Rating.Rating, &p[1].RD, &p[1].Games, &p[2].Rating.Rating, &p[2].RD, &p[2].Games); err != nil {
			return nil, err
		}
		for i := range p {
			p[i].Category = TeamPerfs[i]
		}
		m.Joined = fromMS(joined)
		out = append(out, m)
	}
	return out, rows.Err()
}

// AdmitTeam makes user id a member of team. from is what lets him in:
// "request" or "invite" (his request or invitation must be waiting,
// ErrNotFound otherwise), or "" for an open team. Both are removed. He
// may be a member of b.Joined teams and the team have b.Members
// (ErrLimit); admitting a member again changes nothing.
func (s *Store) AdmitTeam(ctx context.Context, team string, userID int64, from string, b TeamBounds) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var role string
		err := tx.QueryRowContext(ctx, `SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, team, userID).Scan(&role)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var members int
		if err := tx.QueryRowContext(ctx, `SELECT members FROM teams WHERE id = $1`, team).Scan(&members); errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: team %s: %w", team, ErrNotFound)
		} else if err != nil {
			return err
		}
		if from != "" {
			table := map[string]string{"request": "team_requests", "invite": "team_invites"}[from]
			if table == "" {
				return fmt.Errorf("store: admit to team from %q", from)
			}
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE team_id = $1 AND user_id = $2`, team, userID).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("store: no %s of %d to team %s: %w", from, userID, team, ErrNotFound)
			}
		}
		if members >= b.Members {
			return fmt.Errorf("store: team %s has %d members: %w", team, members, ErrLimit)
		}
		if err := joinedBound(ctx, tx, userID, b.Joined); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO team_members (team_id, user_id, role, joined_ms) VALUES ($1, $2, 'member', $3)`, team, userID, ms(s.now())); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE teams SET members = members + 1 WHERE id = $1`, team); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM team_requests WHERE team_id = $1 AND user_id = $2`, team, userID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM team_invites WHERE team_id = $1 AND user_id = $2`, team, userID)
		return err
	})
}

// pending adds a request (by 0) or an invitation (by the inviter) of user
// id to team, counted as kind against by's or id's perDay, with at most
// max waiting at the team (ErrLimit). ErrConflict when he is a member
// already; asking again changes nothing.
func (s *Store) pending(ctx context.Context, table, kind, team string, userID, by int64, message string, perDay, max int) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM team_members WHERE team_id = $1 AND user_id = $2`, team, userID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("store: %d is in team %s: %w", userID, team, ErrConflict)
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE team_id = $1 AND user_id = $2`, team, userID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE team_id = $1`, team).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return fmt.Errorf("store: %d waiting at team %s: %w", n, team, ErrLimit)
		}
		counted := userID
		if by != 0 {
			counted = by
		}
		if err := s.countWrite(ctx, tx, counted, kind, perDay); err != nil {
			return err
		}
		var err error
		if by == 0 {
			_, err = tx.ExecContext(ctx, `INSERT INTO team_requests (team_id, user_id, message, created_ms) VALUES ($1, $2, $3, $4)`, team, userID, message, ms(s.now()))
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO team_invites (team_id, user_id, invited_by, created_ms) VALUES ($1, $2, $3, $4)`, team, userID, by, ms(s.now()))
		}
		if _, fk := constraint(err); fk {
			return fmt.Errorf("store: team %s: %w", team, ErrNotFound)
		}
		return err
	})
}

// RequestTeam stores user id's request to join team with his message;
// he may ask perDay times a day, and max requests wait at a team.
func (s *Store) RequestTeam(ctx context.Context, team string, userID int64, message string, perDay, max int) error {
	return s.pending(ctx, "team_requests", "request", team, userID, 0, message, perDay, max)
}

// InviteTeam stores by's invitation of user id to team; by may invite
// perDay times a day, and max invitations wait at a team.
func (s *Store) InviteTeam(ctx context.Context, team string, userID, by int64, perDay, max int) error {
	return s.pending(ctx, "team_invites", "invite", team, userID, by, "", perDay, max)
}

// DropTeamRequest removes user id's request to join team, or his
// invitation (invite), ErrNotFound when there is none.
func (s *Store) DropTeamRequest(ctx context.Context, team string, userID int64, invite bool) error {
	table := "team_requests"
	if invite {
		table = "team_invites"
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE team_id = $1 AND user_id = $2`, team, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: nothing of %d waiting at team %s: %w", userID, team, ErrNotFound)
		}
		return nil
	})
}

func (s *Store) teamRequests(ctx context.Context, q string, args ...any) ([]TeamRequest, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: team requests: %w", err)
	}
	defer rows.Close()
	var out []TeamRequest
	for rows.Next() {
		var x TeamRequest
		var created int64
		if err := rows.Scan(&x.TeamID, &x.TeamName, &x.UserID, &x.Name, &x.Message, &x.By, &created); err != nil {
			return nil, err
		}
		x.Created = fromMS(created)
		out = append(out, x)
	}
	return out, rows.Err()
}

// TeamRequests returns limit requests waiting at team from offset, the
// oldest first; invites: its invitations instead.
func (s *Store) TeamRequests(ctx context.Context, team string, invites bool, offset, limit int) ([]TeamRequest, error) {
	if invites {
		return s.teamRequests(ctx, `SELECT r.team_id, t.name, r.user_id, u.name, '', b.name, r.created_ms FROM team_invites r
			JOIN teams t ON t.id = r.team_id JOIN users u ON u.id = r.user_id JOIN users b ON b.id = r.invited_by
			WHERE r.team_id = $1 ORDER BY r.created_ms, u.name_key LIMIT $2 OFFSET $3`, team, limit, offset)
	}
	return s.teamRequests(ctx, `SELECT r.team_id, t.name, r.user_id, u.name, r.message, '', r.created_ms FROM team_requests r
		JOIN teams t ON t.id = r.team_id JOIN users u ON u.id = r.user_id
		WHERE r.team_id = $1 ORDER BY r.created_ms, u.name_key LIMIT $2 OFFSET $3`, team, limit, offset)
}

// TeamInvitesOf returns limit invitations of user id from offset, the
// newest first.
func (s *Store) TeamInvitesOf(ctx context.Context, userID int64, offset, limit int) ([]TeamRequest, error) {
	return s.teamRequests(ctx, `SELECT r.team_id, t.name, r.user_id, u.name, '', b.name, r.created_ms FROM team_invites r
		JOIN teams t ON t.id = r.team_id JOIN users u ON u.id = r.user_id JOIN users b ON b.id = r.invited_by
		WHERE r.user_id = $1 ORDER BY r.created_ms DESC, r.team_id LIMIT $2 OFFSET $3`, userID, limit, offset)
}

// TeamRequested reports whether user id asked to join team and waits.
func (s *Store) TeamRequested(ctx context.Context, team string, userID int64) (requested, invited bool, err error) {
	var n, m int
	err = s.r.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM team_requests WHERE team_id = $1 AND user_id = $2),
		(SELECT count(*) FROM team_invites WHERE team_id = $1 AND user_id = $2)`, team, userID).Scan(&n, &m)
	return n > 0, m > 0, err
}

// ErrLastLeader is a change that would leave a team with members and no
// leader.
var ErrLastLeader = errors.New("the team's last leader")

// leaders returns team's leaders other than user id, and its members.
func otherLeaders(ctx context.Context, tx *sql.Tx, team string, userID int64) (leaders, members int, err error) {
	err = tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM team_members WHERE team_id = $1 AND role = 'leader' AND user_id <> $2),
		(SELECT count(*) FROM team_members WHERE team_id = $1)`, team, userID).Scan(&leaders, &members)
	return leaders, members, err
}

// LeaveTeam removes user id from team (ErrNotFound when he is no member).
// The last leader may leave only as the last member, and the team goes
// with him (closed reports it); otherwise ErrLastLeader.
func (s *Store) LeaveTeam(ctx context.Context, team string, userID int64) (closed bool, err error) {
	err = s.write(ctx, func(tx *sql.Tx) error {
		var role string
		err := tx.QueryRowContext(ctx, `SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, team, userID).Scan(&role)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: %d in team %s: %w", userID, team, ErrNotFound)
		}
		if err != nil {
			return err
		}
		leaders, members, err := otherLeaders(ctx, tx, team, userID)
		if err != nil {
			return err
		}
		if members == 1 {
			closed = true
			_, err := tx.ExecContext(ctx, `DELETE FROM teams WHERE id = $1`, team)
			return err
		}
		if role == "leader" && leaders == 0 {
			return fmt.Errorf("store: %d leaves team %s: %w", userID, team, ErrLastLeader)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM team_members WHERE team_id = $1 AND user_id = $2`, team, userID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE teams SET members = members - 1 WHERE id = $1`, team)
		return err
	})
	return closed, err
}

// SetTeamRole makes member id of team a leader, a coach or a member
// (ErrNotFound when he is no member, ErrLastLeader when he is the last
// leader and would be no more).
func (s *Store) SetTeamRole(ctx context.Context, team string, userID int64, role string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, team, userID).Scan(&old)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: %d in team %s: %w", userID, team, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if old == "leader" && role != "leader" {
			leaders, _, err := otherLeaders(ctx, tx, team, userID)
			if err != nil {
				return err
			}
			if leaders == 0 {
				return fmt.Errorf("store: %d in team %s: %w", userID, team, ErrLastLeader)
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2`, team, userID, role)
		return err
	})
}

// UpdateTeam changes team's name, description and way of joining.
func (s *Store) UpdateTeam(ctx context.Context, id, name, description, joinMode string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE teams SET name = $2, name_key = $3, description = $4, join_mode = $5 WHERE id = $1`,
			id, name, strings.ToLower(name), description, joinMode)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: team %s: %w", id, ErrNotFound)
		}
		return nil
	})
}

// CloseTeam removes team id with its members, requests and invitations
// (ErrNotFound when none); its battles and matches keep its name.
func (s *Store) CloseTeam(ctx context.Context, id string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM teams WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: team %s: %w", id, ErrNotFound)
		}
		return nil
	})
}
