package urls

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/webload/webload/check"
	"github.com/webload/webload/extract"
	"github.com/webload/webload/internal/inputfile"
)

// maxLineBytes is far above any sane URL line but still bounds memory; siege
// drops lines over 40 000 bytes, which breaks large inline JSON bodies.
const maxLineBytes = 16 << 20

// blanks are the bytes trimmed from lines; CR is included so CRLF files work.
const blanks = " \t\r"

// commandLine is the Source and error prefix of targets from ParseLine.
const commandLine = "command line"

// ParseFile reads a URL file. Body files ("URL POST <body.json") are read
// relative to the URL file's folder (absolute paths only with
// Options.AllowAbsoluteBodies), so a suite of files and bodies can be moved
// around together.
func ParseFile(path string, opt Options) ([]Target, error) {
	f, err := inputfile.Open(path, inputfile.Lists)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	return parse(f, path, filepath.Dir(path), opt, countTargets(path))
}

// countTargets counts the lines of a URL file that may be URL lines (not blank, not a comment
// or directive), reading it once before it is parsed, so that its list is allocated once: a
// list grown by appending leaves four times its size in copies behind, which took a
// 1 000 000-line file to twice the memory it keeps. The count is only a capacity; 0 when the
// file cannot be read (parsing then says why).
func countTargets(path string) int {
	f, err := inputfile.Open(path, inputfile.Lists)
	if err != nil {
		return 0
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	n, start := 0, true
	for {
		b, err := r.ReadSlice('\n')
		if start {
			if t := bytes.TrimLeft(b, blanks+"\n"); len(t) > 0 && t[0] != '#' {
				n++
			}
		}
		// A line longer than the buffer comes in parts; only the first starts a line.
		start = err != bufio.ErrBufferFull
		if err != nil && err != bufio.ErrBufferFull {
			return n
		}
	}
}

// Parse reads URL-file text from r. name is used in error messages
// ("FILE:LINE: ..."), dir is the folder that "<file" bodies are relative to.
// It stops at the first bad line because later lines may depend on variables
// the bad line failed to define.
func Parse(r io.Reader, name, dir string, opt Options) ([]Target, error) {
	return parse(r, name, dir, opt, 0)
}

// parse is Parse with room for about size targets.
func parse(r io.Reader, name, dir string, opt Options, size int) ([]Target, error) {
	p := &parser{name: name, files: bodyFiles{dir: dir, allowAbsolute: opt.AllowAbsoluteBodies}, getenv: opt.Getenv, perUser: opt.PerUser, vars: map[string]string{}, extracted: map[string]int{}}
	sc := bufio.NewScanner(r)
	// Room for the longest allowed line plus its CRLF; longer lines make the
	// scanner fail with bufio.ErrTooLong, or are caught by the check below.
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes+3)
	targets := make([]Target, 0, size)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if len(line) > maxLineBytes {
			return nil, p.errorAt(n, ErrLineTooLong)
		}
		p.lineNo = n
		t, ok, err := p.line(line)
		if err != nil {
			return nil, p.errorAt(n, err)
		}
		if ok {
			t.Source = name + ":" + strconv.Itoa(n)
			targets = append(targets, t)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, p.errorAt(n+1, ErrLineTooLong)
		}
		return nil, p.errorAt(0, fmt.Errorf("read: %w", err))
	}
	if len(targets) == 0 {
		return nil, p.errorAt(0, fmt.Errorf("%w in file", ErrEmpty))
	}
	if p.dangling != nil {
		return nil, p.errorAt(p.danglingLine, p.dangling)
	}
	return targets, nil
}

// ParseLine parses one URL given on the command line with the same grammar
// as a file line ("http://h/p POST a=1"), so users need to learn only one
// syntax. Relative "<file" bodies are relative to the current directory and
// absolute ones are allowed, since the user typed them;
// Source is "command line". Variable definitions are not recognised: a
// command line holds exactly one URL.
func ParseLine(line string, opt Options) (Target, error) {
	p := &parser{name: commandLine, files: bodyFiles{allowAbsolute: true}, getenv: opt.Getenv, perUser: opt.PerUser}
	t, err := p.target(strings.Trim(line, blanks+"\n"))
	if err != nil {
		return Target{}, p.errorAt(0, err)
	}
	t.Source = commandLine
	return t, nil
}

// parser holds what one input accumulates; it is per call so concurrent
// parses never share variables.
type parser struct {
	name     string
	files    bodyFiles
	getenv   func(string) (string, bool)
	perUser  func(string) bool // Options.PerUser
	vars     map[string]string
	weight   float64        // from a "#@weight" line, for the next URL
	checks   []check.Expr   // from "#@check" lines, for the next URL
	extracts []extract.Rule // from "#@extract" lines, for the next URL
	// lineNo is the number of the line being read.
	lineNo int
	// extracted maps the names of extracts to the line of their directive, to explain a
	// $(NAME) that refers to one.
	extracted map[string]int
	// dangling is the problem of the first directive still waiting for a URL line
	// (errDanglingCheck or errDanglingExtract), nil when none is; danglingLine is its line.
	dangling     error
	danglingLine int
}

// errorAt wraps err so every failure names the input, and the line when
// there is one.
func (p *parser) errorAt(line int, err error) error {
	return &LineError{File: p.name, Line: line, Err: err}
}

// lookup gives file variables priority over the environment, as siege does,
// so a file behaves the same on every machine unless it opts into the
// environment by leaving a variable undefined.
func (p *parser) lookup(name string) (string, bool) {
	if p.isPerUser(name) {
		// Left as a reference in its canonical form, for CompileTemplate.
		return "$(" + name + ")", true
	}
	if v, ok := p.vars[name]; ok {
		return v, true
	}
	if p.getenv != nil {
		return p.getenv(name)
	}
	return "", false
}

// isPerUser tells a name whose value each user has at request time: one of Options.PerUser,
// or one an earlier #@extract line of this input sets.
func (p *parser) isPerUser(name string) bool {
	if _, ok := p.extracted[name]; ok {
		return true
	}
	return p.perUser != nil && p.perUser(name)
}

// expand resolves the variables of a URL-file line or definition. An undefined variable says
// where a value can come from: a list imported with --base '$(SITE)' names SITE and nothing
// else, and the user meets it on the first run.
func (p *parser) expand(s string) (string, error) {
	out, err := Expander{Lookup: p.lookup}.Expand(s)
	var undefined *UndefinedVariableError
	if !errors.As(err, &undefined) || p.name == commandLine {
		return out, err
	}
	return "", fmt.Errorf("%w (set it in the environment or on a line %s=VALUE above this one)", err, undefined.Name)
}

// line handles one raw file line; ok is false for lines that yield no target
// (blank, comment, variable definition).
func (p *parser) line(raw string) (t Target, ok bool, err error) {
	line := strings.Trim(raw, blanks)
	if isDirective(line, checkDirective) {
		e, err := p.parseCheck(raw, line)
		p.checks = append(p.checks, e)
		p.wait(errDanglingCheck)
		return Target{}, false, err
	}
	if isDirective(line, extractDirective) {
		r, err := parseExtract(raw, line)
		p.extracts = append(p.extracts, r)
		p.extracted[r.Name()] = p.lineNo
		p.wait(errDanglingExtract)
		return Target{}, false, err
	}
	if strings.HasPrefix(line, weightDirective) {
		p.weight, err = parseWeight(strings.TrimSpace(line[len(weightDirective):]))
		return Target{}, false, err
	}
	if strings.HasPrefix(line, directivePrefix) {
		return Target{}, false, unknownDirective(line)
	}
	if line == "" || line[0] == '#' {
		return Target{}, false, nil
	}
	if name, value, isVar := splitVariable(line); isVar {
		if name == "" {
			return Target{}, false, errors.New("missing variable name before \"=\"")
		}
		if p.isPerUser(name) {
			return Target{}, false, fmt.Errorf("%s is a per-user variable (a --data column, or set by #@extract): a %s=VALUE line cannot set it", name, name)
		}
		v, err := p.expand(value)
		if err != nil {
			return Target{}, false, err
		}
		p.vars[name] = v
		return Target{}, false, nil
	}
	t, err = p.target(line)
	if err != nil {
		return Target{}, false, err
	}
	t.Weight, p.weight = p.weight, 0
	t.Checks, p.checks = p.checks, nil
	t.Extracts, p.extracts = p.extracts, nil
	p.dangling, p.danglingLine = nil, 0
	return t, true, nil
}

// wait notes a directive that needs a URL line after it; the first one not followed by one is
// the error.
func (p *parser) wait(dangling error) {
	if p.dangling == nil {
		p.dangling, p.danglingLine = dangling, p.lineNo
	}
}

// target expands a trimmed URL line and parses the result.
func (p *parser) target(line string) (Target, error) {
	expanded, err := p.expand(line)
	if err != nil {
		return Target{}, err
	}
	expanded = strings.Trim(expanded, blanks)
	if expanded == "" {
		return Target{}, errors.New("missing URL")
	}
	return parseTarget(expanded, p.files, p.isPerUser)
}

// splitVariable recognises "NAME=value" the way siege does: only name bytes
// may precede the first '=', which is what keeps URLs with query strings
// from being taken for definitions. The value skips any run of blanks, '='
// and ':' after the name and loses a trailing " #comment".
func splitVariable(line string) (name, value string, ok bool) {
	eq := strings.IndexByte(line, '=')
	if eq < 0 {
		return "", "", false
	}
	for i := 0; i < eq; i++ {
		if !isNameByte(line[i]) {
			return "", "", false
		}
	}
	rest := stripComment(line[eq+1:])
	return line[:eq], strings.TrimLeft(rest, " \t=:"), true
}

// stripComment cuts s at the first '#' that follows a blank and drops the
// blanks before it. A '#' glued to text is kept because it may be data.
func stripComment(s string) string {
	if c := commentStart(s); c >= 0 {
		return strings.TrimRight(s[:c], blanks)
	}
	return s
}

// commentStart returns the index of the first '#' preceded by a blank, or -1.
func commentStart(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && isBlank(s[i-1]) {
			return i
		}
	}
	return -1
}

// isBlank is the separator class of the line grammar.
func isBlank(c byte) bool { return c == ' ' || c == '\t' }
