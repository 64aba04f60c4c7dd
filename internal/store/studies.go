package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrLimit is a write beyond a bound the caller gave (studies per owner,
// members, students; broadcasts per account).
var ErrLimit = errors.New("limit reached")

// Study is a study's header; its chapters are read by Chapters.
type Study struct {
	ID         string
	OwnerID    int64
	Owner      string // the owner's name
	Name       string
	Visibility string // public, unlisted, private
	Created    time.Time
	Chapters   int
}

// Member is an invited member of a study (Role editor or viewer) or a
// student of a class (Accepted once he said yes).
type Member struct {
	UserID   int64
	Name     string
	Role     string
	Accepted bool
}

// CreateStudy stores a new study with its first chapter; owner may own at
// most max studies (ErrLimit beyond).
func (s *Store) CreateStudy(ctx context.Context, ownerID int64, name, visibility string, max int, chapterName, record string) (Study, error) {
	id, err := s.newID()
	if err != nil {
		return Study{}, err
	}
	st := Study{ID: id, OwnerID: ownerID, Name: name, Visibility: visibility, Created: s.now().UTC().Truncate(time.Millisecond), Chapters: 1}
	err = s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM studies WHERE owner_id = $1`, ownerID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return fmt.Errorf("store: %d studies: %w", n, ErrLimit)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO studies (id, owner_id, name, visibility, created_ms) VALUES ($1, $2, $3, $4, $5)`,
			id, ownerID, name, visibility, ms(st.Created)); err != nil {
			return fmt.Errorf("store: create study: %w", err)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO study_chapters (study_id, idx, name, record) VALUES ($1, 0, $2, $3)`, id, chapterName, record)
		return err
	})
	return st, err
}

const studyColumns = `s.id, s.owner_id, u.name, s.name, s.visibility, s.created_ms,
	(SELECT count(*) FROM study_chapters c WHERE c.study_id = s.id)`

func scanStudy(sc interface{ Scan(...any) error }) (Study, error) {
	var st Study
	var created int64
	err := sc.Scan(&st.ID, &st.OwnerID, &st.Owner, &st.Name, &st.Visibility, &created, &st.Chapters)
	st.Created = time.UnixMilli(created).UTC()
	return st, err
}

// GetStudy returns study id (ErrNotFound when none).
func (s *Store) GetStudy(ctx context.Context, id string) (Study, error) {
	st, err := scanStudy(s.r.QueryRowContext(ctx, `SELECT `+studyColumns+` FROM studies s JOIN users u ON u.id = s.owner_id WHERE s.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("store: study %s: %w", id, ErrNotFound)
	}
	return st, err
}

// StudiesOf returns the studies user id owns or is a member of, then (when
// public) the public ones, newest first, at most limit of each.
func (s *Store) StudiesOf(ctx context.Context, userID int64, public bool, limit int) (mine, others []Study, err error) {
	q := func(where string, args ...any) ([]Study, error) {
		rows, err := s.r.QueryContext(ctx, `SELECT `+studyColumns+` FROM studies s JOIN users u ON u.id = s.owner_id WHERE `+where+
			` ORDER BY s.created_ms DESC, s.id LIMIT `+fmt.Sprint(limit), args...)
		if err != nil {
			return nil, fmt.Errorf("store: studies: %w", err)
		}
		defer rows.Close()
		var out []Study
		for rows.Next() {
			st, err := scanStudy(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		}
		return out, rows.Err()
	}
	if userID != 0 {
		if mine, err = q(`s.owner_id = $1 OR s.id IN (SELECT study_id FROM study_members WHERE user_id = $1)`, userID); err != nil {
			return nil, nil, err
		}
	}
	if public {
		others, err = q(`s.visibility = 'public' AND s.owner_id <> $1 AND s.id NOT IN (SELECT study_id FROM study_members WHERE user_id = $1)`, userID)
	}
	return mine, others, err
}

// StudyRole returns user id's role in study: owner, editor, viewer or "".
func (s *Store) StudyRole(ctx context.Context, study string, userID int64) (string, error) {
	var role string
	err := s.r.QueryRowContext(ctx, `SELECT CASE WHEN s.owner_id = $2 THEN 'owner' ELSE coalesce(m.role, '') END
		FROM studies s LEFT JOIN study_members m ON m.study_id = s.id AND m.user_id = $2 WHERE s.id = $1`, study, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: study %s: %w", study, ErrNotFound)
	}
	return role, err
}

// SetStudyMember gives user id a role (editor, viewer) in study, or
// removes him (role ""); a study has at most max members (ErrLimit).
func (s *Store) SetStudyMember(ctx context.Context, study string, userID int64, role string, max int) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if role == "" {
			_, err := tx.ExecContext(ctx, `DELETE FROM study_members WHERE study_id = $1 AND user_id = $2`, study, userID)
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM study_members WHERE study_id = $1 AND user_id <> $2`, study, userID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return fmt.Errorf("store: %d members: %w", n, ErrLimit)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO study_members (study_id, user_id, role) VALUES ($1, $2, $3)
			ON CONFLICT (study_id, user_id) DO UPDATE SET role = excluded.role`, study, userID, role)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("store: member of study %s: %w", study, ErrNotFound)
		}
		return err
	})
}

// StudyMembers returns the invited members of a study, by name.
func (s *Store) StudyMembers(ctx context.Context, study string) ([]Member, error) {
	return s.members(ctx, `SELECT m.user_id, u.name, m.role, 1 FROM study_members m JOIN users u ON u.id = m.user_id
		WHERE m.study_id = $1 ORDER BY u.name_key`, study)
}

func (s *Store) members(ctx context.Context, q string, args ...any) ([]Member, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: members: %w", err)
	}
	defer rows.Close()
	var out []Member
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.UserID, &m.Name, &m.Role, &m.Accepted); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Chapters returns a study's chapters in order (study.Store).
func (s *Store) Chapters(ctx context.Context, study string) (names, records []string, err error) {
	rows, err := s.r.QueryContext(ctx, `SELECT name, record FROM study_chapters WHERE study_id = $1 ORDER BY idx`, study)
	if err != nil {
		return nil, nil, fmt.Errorf("store: chapters of %s: %w", study, err)
	}
	defer rows.Close()
	for rows.Next() {
		var n, r string
		if err := rows.Scan(&n, &r); err != nil {
			return nil, nil, err
		}
		names, records = append(names, n), append(records, r)
	}
	return names, records, rows.Err()
}

// SaveChapter stores chapter index of a study: the next index adds one
// (study.Store); an index beyond it is ErrConflict.
func (s *Store) SaveChapter(ctx context.Context, study string, index int, name, record string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM study_chapters WHERE study_id = $1`, study).Scan(&n); err != nil {
			return err
		}
		if index < 0 || index > n {
			return fmt.Errorf("store: chapter %d of %s, which has %d: %w", index, study, n, ErrConflict)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO study_chapters (study_id, idx, name, record) VALUES ($1, $2, $3, $4)
			ON CONFLICT (study_id, idx) DO UPDATE SET name = excluded.name, record = excluded.record`, study, index, name, record)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("store: study %s: %w", study, ErrNotFound)
		}
		return err
	})
}

// Class is a coach's class.
type Class struct {
	ID      string
	CoachID int64
	Coach   string
	Name    string
	Created time.Time
}

// CreateClass stores a new class; a coach has at most max (ErrLimit).
func (s *Store) CreateClass(ctx context.Context, coachID int64, name string, max int) (Class, error) {
	id, err := s.newID()
	if err != nil {
		return Class{}, err
	}
	c := Class{ID: id, CoachID: coachID, Name: name, Created: s.now().UTC().Truncate(time.Millisecond)}
	err = s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM classes WHERE coach_id = $1`, coachID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return fmt.Errorf("store: %d classes: %w", n, ErrLimit)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO classes (id, coach_id, name, created_ms) VALUES ($1, $2, $3, $4)`, id, coachID, name, ms(c.Created))
		return err
	})
	return c, err
}

func (s *Store) classes(ctx context.Context, where string, args ...any) ([]Class, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.coach_id, u.name, c.name, c.created_ms FROM classes c JOIN users u ON u.id = c.coach_id
		WHERE `+where+` ORDER BY c.created_ms DESC, c.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: classes: %w", err)
	}
	defer rows.Close()
	var out []Class
	for rows.Next() {
		var c Class
		var created int64
		if err := rows.Scan(&c.ID, &c.CoachID, &c.Coach, &c.Name, &created); err != nil {
			return nil, err
		}
		c.Created = time.UnixMilli(created).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// GetClass returns class id (ErrNotFound when none).
func (s *Store) GetClass(ctx context.Context, id string) (Class, error) {
	cs, err := s.classes(ctx, `c.id = $1`, id)
	if err != nil {
		return Class{}, err
	}
	if len(cs) == 0 {
		return Class{}, fmt.Errorf("store: class %s: %w", id, ErrNotFound)
	}
	return cs[0], nil
}

// ClassesOf returns the classes user id coaches, and those he is a
// student of or invited to (accepted or not: Member.Accepted tells).
func (s *Store) ClassesOf(ctx context.Context, userID int64) (coached []Class, joined []Class, accepted []bool, err error) {
	if coached, err = s.classes(ctx, `c.coach_id = $1`, userID); err != nil {
		return nil, nil, nil, err
	}
	if joined, err = s.classes(ctx, `c.id IN (SELECT class_id FROM class_students WHERE user_id = $1)`, userID); err != nil {
		return nil, nil, nil, err
	}
	for _, c := range joined {
		var a bool
		if err := s.r.QueryRowContext(ctx, `SELECT accepted FROM class_students WHERE class_id = $1 AND user_id = $2`, c.ID, userID).Scan(&a); err != nil {
			return nil, nil, nil, err
		}
		accepted = append(accepted, a)
	}
	return coached, joined, accepted, nil
}

// InviteStudent invites user id to a class of at most max students
// (ErrLimit); inviting him again changes nothing.
func (s *Store) InviteStudent(ctx context.Context, class string, userID int64, max int) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM class_students WHERE class_id = $1 AND user_id <> $2`, class, userID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return fmt.Errorf("store: %d students: %w", n, ErrLimit)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO class_students (class_id, user_id, invited_ms) VALUES ($1, $2, $3)
			ON CONFLICT (class_id, user_id) DO NOTHING`, class, userID, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("store: class %s: %w", class, ErrNotFound)
		}
		return err
	})
}

// AnswerClass records a student's answer to an invitation: yes accepts
// it, no leaves the class. ErrNotFound when he was not invited.
func (s *Store) AnswerClass(ctx context.Context, class string, userID int64, yes bool) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		q := `UPDATE class_students SET accepted = 1 WHERE class_id = $1 AND user_id = $2`
		if !yes {
			q = `DELETE FROM class_students WHERE class_id = $1 AND user_id = $2`
		}
		res, err := tx.ExecContext(ctx, q, class, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("store: invitation to %s: %w", class, ErrNotFound)
		}
		return nil
	})
}

// ClassStudents returns a class's students and invited students, by name.
func (s *Store) ClassStudents(ctx context.Context, class string) ([]Member, error) {
	return s.members(ctx, `SELECT m.user_id, u.name, '', m.accepted FROM class_students m JOIN users u ON u.id = m.user_id
		WHERE m.class_id = $1 ORDER BY u.name_key`, class)
}
