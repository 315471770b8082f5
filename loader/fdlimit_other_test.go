//go:build !unix

package loader

import (
	"errors"
	"testing"
)

// Without an open-files limit there is nothing to raise and no cap on users to derive.
func TestNoFileLimit(t *testing.T) {
	if err := RaiseFileLimit(1 << 20); err != nil {
		t.Errorf("RaiseFileLimit: %v, want nil where there is no limit", err)
	}
	if n, err := MaxUsersForFileLimit(); !errors.Is(err, ErrNoFileLimit) || n != 0 {
		t.Errorf("MaxUsersForFileLimit = %d, %v; want 0, ErrNoFileLimit", n, err)
	}
}
