//go:build !unix

package inputfile

import "os"

// ReadFlags are the flags to open an input with (os.OpenFile, os.Root.OpenFile) before Check.
// Windows has no FIFOs among files: its named pipes live under \\.\pipe\, and opening one
// without a server fails at once instead of waiting, so a plain open cannot hang.
const ReadFlags = os.O_RDONLY

// blocking has nothing to clear: ReadFlags asks for no non-blocking mode here.
func blocking(*os.File) {}
