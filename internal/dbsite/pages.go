package dbsite

import (
	"context"
	"fmt"
	"html"
	"strings"
)

// item renders item id with its parts, in the statements Options ask for.
func (s *Site) item(ctx context.Context, id int) (string, error) {
	var b strings.Builder
	if s.opts.NPlusOne {
		// An ORM's lazy loading: the item with its parts' ids, then each part on its own.
		// The page is the same as the two-statement one's: only the database sees the
		// difference.
		ids, item, err := s.partIDs(ctx, id)
		if err != nil {
			return "", err
		}
		writeList(&b, item)
		var parts []string
		for _, pid := range ids {
			names, err := s.column(ctx, "SELECT name FROM dbsite_parts WHERE id = ?", pid)
			if err != nil {
				return "", err
			}
			parts = append(parts, names...)
		}
		writeList(&b, parts)
		return s.extra(ctx, &b)
	}
	for range s.opts.ItemReads {
		names, err := s.column(ctx, "SELECT name FROM dbsite_items WHERE id = ?", id)
		if err != nil {
			return "", err
		}
		writeList(&b, names)
	}
	for range s.opts.PerItem - 1 {
		parts, err := s.column(ctx, "SELECT name FROM dbsite_parts WHERE item_id = ? ORDER BY id", id)
		if err != nil {
			return "", err
		}
		writeList(&b, parts)
	}
	return s.extra(ctx, &b)
}

// extra runs Options.Extra, when set, and returns the page.
func (s *Site) extra(ctx context.Context, b *strings.Builder) (string, error) {
	if s.opts.Extra != "" {
		v, err := s.column(ctx, s.opts.Extra)
		if err != nil {
			return "", err
		}
		writeList(b, v)
	}
	return b.String(), nil
}

// partIDs reads item id's name and its parts' ids in one statement.
func (s *Site) partIDs(ctx context.Context, id int) (ids []int, name []string, err error) {
	const query = "SELECT p.id, i.name FROM dbsite_parts p JOIN dbsite_items i ON i.id = p.item_id WHERE p.item_id = ? ORDER BY p.id"
	s.statements.Add(1)
	rows, err := s.db.QueryContext(ctx, s.q(query), id)
	if err != nil {
		return nil, nil, fmt.Errorf("running %q: %w", query, err)
	}
	defer rows.Close()
	for rows.Next() {
		var pid int
		var n string
		if err := rows.Scan(&pid, &n); err != nil {
			return nil, nil, fmt.Errorf("reading %q: %w", query, err)
		}
		ids, name = append(ids, pid), []string{n}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("reading %q: %w", query, err)
	}
	return ids, name, nil
}

// list renders every item, in one statement.
func (s *Site) list(ctx context.Context) (string, error) {
	names, err := s.column(ctx, "SELECT name FROM dbsite_items ORDER BY id")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	writeList(&b, names)
	return b.String(), nil
}

// column runs one statement and returns its first column as text.
func (s *Site) column(ctx context.Context, query string, args ...any) ([]string, error) {
	s.statements.Add(1)
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("running %q: %w", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("reading %q: %w", query, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading %q: %w", query, err)
	}
	return out, nil
}

func writeList(b *strings.Builder, items []string) {
	b.WriteString("<ul>\n")
	for _, it := range items {
		fmt.Fprintf(b, "<li>%s</li>\n", html.EscapeString(it))
	}
	b.WriteString("</ul>\n")
}
