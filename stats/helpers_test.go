package stats

import (
	"testing"

	"github.com/webload/webload/internal/resulttest"
)

func loadSaved(t testing.TB, name string) Report { return resulttest.Load(t, ReadJSON, name) }
