package judge

import "github.com/webload/webload/stats"

// FigureChanges are the change points of a whole run's figure f over the section's history,
// found as FindChanges finds those of the trend's table: for a figure outside the table that a
// page or a report follows too (availability).
func (s *ChangeSection) FigureChanges(f stats.Figure) []ChangePoint {
	return s.figureChanges(f)
}
