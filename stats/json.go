package stats

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/webload/webload/internal/atomicfile"
	"github.com/webload/webload/internal/inputfile"
)

// WriteJSON writes a report, or a comparison or trend, as indented JSON. A report is written
// as encoding/json would write it, but a URL row and a repeat at a time: built whole, the JSON
// of a 1 000 000-URL list took three times its size in memory before its first byte went out.
func WriteJSON(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch r := v.(type) {
	case *Report:
		err = writeReport(bw, r, "")
	case Report:
		err = writeReport(bw, &r, "")
	default:
		enc := json.NewEncoder(bw)
		enc.SetIndent("", "  ")
		err = enc.Encode(v)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// writeReport writes rep as json.Encoder with SetIndent(prefix, "  ") would, and a newline when
// prefix is empty (the top level). The report without its URL rows and repeats is marshaled as
// usual; the rows go where it says "urls": null, the repeats and steps before its closing brace.
// Write errors stick in w and come out of its Flush.
func writeReport(w *bufio.Writer, rep *Report, prefix string) error {
	head := *rep
	head.URLs, head.Repeats, head.Steps = nil, nil, nil
	head.FormatVersion = versionAt(prefix)
	b, err := json.MarshalIndent(&head, prefix, "  ")
	if err != nil {
		return err
	}
	// Strings escape their newlines, so only the report's own key starts a line this way.
	key := "\n" + prefix + `  "urls": `
	i := bytes.Index(b, []byte(key+"null"))
	if i < 0 {
		return errors.New("report without its urls key") // a change to Report broke this
	}
	w.Write(b[:i+len(key)])
	if err := writeURLRows(w, rep.URLs, prefix+"  "); err != nil {
		return err
	}
	rest := b[i+len(key)+len("null"):]
	for _, nested := range []struct {
		key  string
		list []Report
	}{{"repeats", rep.Repeats}, {"steps", rep.Steps}} {
		if len(nested.list) == 0 {
			continue
		}
		end := len(rest) - len("\n"+prefix+"}")
		w.Write(rest[:end])
		w.WriteString(",\n" + prefix + `  "` + nested.key + `": [`)
		for k := range nested.list {
			if k > 0 {
				w.WriteByte(',')
			}
			w.WriteString("\n" + prefix + "    ")
			if err := writeReport(w, &nested.list[k], prefix+"    "); err != nil {
				return err
			}
		}
		w.WriteString("\n" + prefix + "  ]")
		rest = rest[end:]
	}
	w.Write(rest)
	if prefix == "" {
		w.WriteByte('\n')
	}
	return nil
}

// writeURLRows writes rows as the value of a key indented by indent.
func writeURLRows(w *bufio.Writer, rows []URLStats, indent string) error {
	switch {
	case rows == nil:
		w.WriteString("null")
		return nil
	case len(rows) == 0:
		w.WriteString("[]")
		return nil
	}
	var row bytes.Buffer
	enc := json.NewEncoder(&row)
	enc.SetIndent(indent+"  ", "  ")
	w.WriteByte('[')
	for i := range rows {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n" + indent + "  ")
		row.Reset()
		if err := enc.Encode(&rows[i]); err != nil {
			return err
		}
		w.Write(bytes.TrimSuffix(row.Bytes(), []byte("\n")))
	}
	w.WriteString("\n" + indent + "]")
	return nil
}

// SaveJSON writes the report to path atomically (see atomicfile.WriteFunc), as it makes it.
func SaveJSON(path string, rep *Report) error {
	if err := atomicfile.WriteFunc(path, func(w io.Writer) error { return WriteJSON(w, rep) }); err != nil {
		return fmt.Errorf("save report: %w", err)
	}
	return nil
}

// ReadJSON reads a report written by WriteJSON or SaveJSON.
func ReadJSON(path string) (Report, error) {
	var rep Report
	data, err := inputfile.ReadFile(path, inputfile.Results)
	if err != nil {
		return rep, fmt.Errorf("read report: %w", err)
	}
	err = json.Unmarshal(data, &rep)
	if newer := newerFormat(data, &rep, err); newer != nil {
		return rep, fmt.Errorf("read report %s: %w", path, newer)
	}
	if err != nil {
		return rep, fmt.Errorf("read report %s: %w", path, syntaxAt(data, err))
	}
	if err := rep.looksLikeOurs(); err != nil {
		return rep, fmt.Errorf("read report %s: %w", path, err)
	}
	if err := rep.sane(); err != nil {
		return rep, fmt.Errorf("read report %s: %w", path, err)
	}
	return rep, nil
}

// syntaxAt names the JSON key a syntax error follows, so that a NaN or Infinity written where a
// number goes (JSON has neither) is found in a long file: encoding/json gives only an offset.
func syntaxAt(data []byte, err error) error {
	var syn *json.SyntaxError
	if !errors.As(err, &syn) || syn.Offset <= 0 || syn.Offset > int64(len(data)) {
		return err
	}
	off := int(syn.Offset)
	keys := jsonKey.FindAllSubmatch(data[max(0, off-4096):off], -1)
	if len(keys) == 0 {
		return err
	}
	at := fmt.Errorf("after key %s: %w", keys[len(keys)-1][1], err)
	near := data[max(0, off-2):min(len(data), off+3)]
	if bytes.Contains(near, []byte("NaN")) || bytes.Contains(near, []byte("Inf")) {
		return fmt.Errorf("%w (NaN and Infinity are not numbers a result holds)", at)
	}
	return at
}

// jsonKey matches an object key and its colon.
var jsonKey = regexp.MustCompile(`("(?:[^"\\]|\\.)*")\s*:`)

// ErrNotAResult says a JSON file is valid but was not written by webload (siege's -j output,
// say), which would otherwise compare as a run of zeros.
var ErrNotAResult = errors.New("not a webload result (written by webload -o or -j)")

func (r *Report) looksLikeOurs() error {
	if r.Run.Version == "" || r.Run.HistogramUnit != "us" {
		return ErrNotAResult
	}
	return nil
}
