package urls

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/webload/webload/internal/inputfile"
)

// bodyFiles says where "<file" bodies may come from.
type bodyFiles struct {
	// dir is the folder relative paths are read from; "" is the current one.
	dir string
	// allowAbsolute lets absolute paths through (Options.AllowAbsoluteBodies).
	allowAbsolute bool
}

// parseTarget splits an expanded, trimmed line into URL, method and body.
func parseTarget(line string, files bodyFiles, perUser func(string) bool) (Target, error) {
	urlPart, method, rest := splitMethod(line)
	// A blank followed by '#' before the method (or with no method at all)
	// starts a trailing comment, and anything after it, including a method
	// keyword, is commentary. siege would instead escape the text into a
	// fragment, which never reaches the server and only confuses reports.
	if c := commentStart(urlPart); c >= 0 {
		urlPart, method, rest = strings.TrimRight(urlPart[:c], blanks), "GET", ""
	}
	u, err := normalizeURL(urlPart)
	if err != nil {
		return Target{}, err
	}
	t := Target{Method: method, URL: u, URLVars: CompileTemplate(u, perUser)}
	if rest == "" {
		return t, nil
	}
	if method == "GET" || method == "HEAD" {
		// Many servers and proxies drop or reject such bodies, so a body
		// here is almost certainly a mistake in the file.
		return Target{}, fmt.Errorf("%s takes no body", method)
	}
	t.ContentType, t.Body, err = parseBody(rest, files)
	if err != nil {
		return Target{}, err
	}
	// An inline body is part of the line, and so are its references; a body file is sent as
	// it is, as it always was.
	if len(rest) > 0 && !strings.HasPrefix(strings.TrimLeft(afterContentType(rest), blanks), "<") {
		t.BodyVars = CompileTemplate(string(t.Body), perUser)
	}
	return t, nil
}

// splitMethod finds the first method keyword that stands alone (a blank
// before it, a blank or the end after it). Keywords are upper case only, as
// in siege, so lower-case words in a URL are never mistaken for methods.
// Without a keyword the whole line is the URL and the method is GET.
func splitMethod(line string) (urlPart, method, rest string) {
	for i := 1; i < len(line); i++ {
		if !isBlank(line[i-1]) {
			continue
		}
		m := methodAt(line[i:])
		if m == "" {
			continue
		}
		after := line[i+len(m):]
		if after != "" && !isBlank(after[0]) {
			continue
		}
		return strings.TrimRight(line[:i], blanks), m, strings.TrimLeft(after, blanks)
	}
	return line, "GET", ""
}

// methodAt returns the method keyword s starts with, or "".
func methodAt(s string) string {
	for _, m := range [...]string{"POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "GET"} {
		if strings.HasPrefix(s, m) {
			return m
		}
	}
	return ""
}

// afterContentType is rest without its leading "-T type;" directive, if it has one.
func afterContentType(rest string) string {
	if !strings.HasPrefix(rest, "-T") || (len(rest) > 2 && !isBlank(rest[2])) {
		return rest
	}
	s := strings.TrimLeft(rest[2:], blanks)
	end := strings.IndexAny(s, "; \t")
	if end < 0 {
		return ""
	}
	return strings.TrimPrefix(s[end:], ";")
}

// parseBody reads the optional "-T type;" directive and then either an
// inline body, kept byte for byte, or "<path", whose file is read now so a
// missing file fails the parse instead of every request.
func parseBody(rest string, files bodyFiles) (contentType string, body []byte, err error) {
	if strings.HasPrefix(rest, "-T") && (len(rest) == 2 || isBlank(rest[2])) {
		s := strings.TrimLeft(rest[2:], blanks)
		end := strings.IndexAny(s, "; \t")
		if end < 0 {
			end = len(s)
		}
		contentType = s[:end]
		if contentType == "" {
			return "", nil, errors.New("missing content type after -T")
		}
		s = s[end:]
		if strings.HasPrefix(s, ";") {
			s = s[1:]
		}
		rest = strings.TrimLeft(s, blanks)
	}
	if rest == "" {
		return contentType, nil, nil
	}
	if rest[0] != '<' {
		return contentType, []byte(rest), nil
	}
	body, err = readBodyFile(strings.Trim(rest[1:], blanks), files)
	if err != nil {
		return "", nil, err
	}
	return contentType, body, nil
}

// readBodyFile loads a "<path" body. A relative path must stay inside the URL file's folder
// (or, on the command line, the current one): "<../../etc/shadow" or a symlink leading out is
// refused, so a URL file from elsewhere cannot make webload send files it did not ship with.
// For the same reason an absolute path is refused unless the user allowed it. Only regular
// files are accepted: a device or FIFO could block the parse forever or never end.
func readBodyFile(path string, files bodyFiles) ([]byte, error) {
	if path == "" {
		return nil, errors.New("missing body file name after \"<\"")
	}
	f, err := openBodyFile(path, files)
	if err != nil {
		return nil, fmt.Errorf("read body file %s: %w", path, err)
	}
	in, err := inputfile.Check(f, path, inputfile.Bodies)
	if err != nil {
		return nil, fmt.Errorf("read body file %s: %w", path, errors.Unwrap(err)) // the path once
	}
	defer in.Close()
	data, err := inputfile.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("read body file %s: %w", path, err)
	}
	return data, nil
}

// openBodyFile opens with inputfile.ReadFlags, without blocking: opening a FIFO for reading
// would otherwise wait for a writer before readBodyFile could see what kind of file it is. The
// flags change nothing for the regular files that are then read.
func openBodyFile(path string, files bodyFiles) (*os.File, error) {
	const flags = inputfile.ReadFlags
	if filepath.IsAbs(path) {
		if !files.allowAbsolute {
			return nil, errors.New("absolute path refused in a URL file (--allow-absolute-bodies allows it)")
		}
		return os.OpenFile(path, flags, 0)
	}
	dir := files.dir
	if dir == "" {
		dir = "."
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.OpenFile(path, flags, 0)
}
