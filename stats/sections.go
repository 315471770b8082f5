package stats

import (
	"github.com/webload/webload/dbload"
	"github.com/webload/webload/section"
	"github.com/webload/webload/sysload"
)

// resultSection is an optional part of a result, owned by its feature's package: the figures
// it offers, and where a result keeps it.
type resultSection struct {
	figures []section.Figure
	of      func(*Report) section.Section // nil when the result has none
	// add sets the section of a result made of parts, after the rest of it: the shards of one
	// run (Merge) or runs made one after another (Combine).
	add func(out *Report, parts []Report, shards bool)
}

// sections are the optional parts of a result, in the order the text report shows them. A
// feature that observes a run adds its entry here and its field to Report; its figures then
// serve --assert, --abort-on, --max-regression, compare and the HTML summary, and its lines
// the text report.
var sections = []resultSection{
	{sysload.Figures, func(r *Report) section.Section {
		if r.Server == nil {
			return nil
		}
		return r.Server
	}, func(out *Report, parts []Report, _ bool) {
		servers, seconds := make([]*sysload.Summary, len(parts)), make([]float64, len(parts))
		for i := range parts {
			servers[i], seconds[i] = parts[i].Server, parts[i].ElapsedTime
		}
		out.Server = sysload.Combine(servers, seconds)
	}},
	{dbload.Figures, func(r *Report) section.Section {
		if dbs := r.DatabaseList(); len(dbs) > 0 {
			return dbload.Summaries(dbs)
		}
		return nil
	}, func(out *Report, parts []Report, shards bool) {
		// The shards read the same database at the same time: one shard's reading is the run's.
		combine := dbload.CombineSeries
		if shards {
			combine = dbload.MergeShards
		}
		out.SetDatabases(combineDatabases(parts, combine))
	}},
}

// sectionRun is what a section's figures take from the run.
func (r *Report) sectionRun() section.Run {
	return section.Run{Transactions: r.Transactions, ElapsedTime: r.ElapsedTime}
}

// sectionFigures are the sections' figures, in the sections' order.
func sectionFigures() []Figure {
	var out []Figure
	for _, s := range sections {
		for _, f := range s.figures {
			out = append(out, sectionFigure(s.of, f))
		}
	}
	return out
}

func sectionFigure(of func(*Report) section.Section, f section.Figure) Figure {
	name := f.Name
	out := Figure{Name: name, Kind: f.Kind, HigherIsBetter: f.HigherIsBetter, Summary: f.Summary, Needs: f.Needs,
		aliases: f.Aliases, unit: f.Unit, Table: f.Table,
		run: func(r *Report) (float64, bool) {
			s := of(r)
			if s == nil {
				return 0, false
			}
			return s.Value(name, r.sectionRun())
		},
		Compare: CompareView{Key: f.Column.Key, Title: f.Column.Title, Unit: f.Column.Unit,
			Scale: f.Column.Scale, Decimals: f.Column.Decimals}}
	if f.Counted {
		out.Counts = func(r *Report) (unit, sources string) {
			if c, ok := of(r).(section.Counter); ok {
				return c.Counts()
			}
			return "", ""
		}
	}
	return out
}

// addSections sets the sections of a result made of parts (see resultSection.add).
func addSections(out *Report, parts []Report, shards bool) {
	for _, s := range sections {
		s.add(out, parts, shards)
	}
}

// SectionLines are the text report's lines of the result's sections, in the sections' order.
func SectionLines(r *Report) []section.Line {
	var out []section.Line
	for _, s := range sections {
		if sec := s.of(r); sec != nil {
			out = append(out, sec.Lines(r.sectionRun())...)
		}
	}
	return out
}
