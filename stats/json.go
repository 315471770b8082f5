package stats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/webload/webload/internal/atomicfile"
)

// WriteJSON writes a report, or a comparison or trend, as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// SaveJSON writes the report to path atomically (see atomicfile.Write).
func SaveJSON(path string, rep *Report) error {
	var b bytes.Buffer
	if err := WriteJSON(&b, rep); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b.Bytes()); err != nil {
		return fmt.Errorf("save report: %w", err)
	}
	return nil
}

// ReadJSON reads a report written by WriteJSON or SaveJSON.
func ReadJSON(path string) (Report, error) {
	var rep Report
	data, err := os.ReadFile(path)
	if err != nil {
		return rep, fmt.Errorf("read report: %w", err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return rep, fmt.Errorf("read report %s: %w", path, err)
	}
	if err := rep.looksLikeOurs(); err != nil {
		return rep, fmt.Errorf("read report %s: %w", path, err)
	}
	return rep, nil
}

// ErrNotAResult says a JSON file is valid but was not written by webload (siege's -j output,
// say), which would otherwise compare as a run of zeros.
var ErrNotAResult = errors.New("not a webload result (written by webload -o or -j)")

func (r *Report) looksLikeOurs() error {
	switch {
	case r.Run.Version == "" || r.Run.HistogramUnit != "us":
		return ErrNotAResult
	case r.Requests < 0 || r.Transactions < 0 || r.FailedTransactions < 0 || r.ElapsedTime < 0:
		return fmt.Errorf("%w: negative counts", ErrNotAResult)
	}
	return nil
}
