package dbload

import "errors"

// newExporter is written in its own change; until then the kind reports that it cannot be read.
func newExporter(t Target) (Source, error) {
	return nil, errors.New("reading exporter: not built yet")
}
