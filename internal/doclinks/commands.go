package doclinks

import (
	"path"
	"regexp"
	"strings"
)

// Command is a webload command that a shell code block of a Markdown page shows.
type Command struct {
	Line  int    // 1-based line it starts on
	Block int    // the code block it is in, from 0: a block's commands are one script
	Text  string // the command as written, its continuation lines joined
	// Env has the NAME=value assignments written before it, and Args its words after
	// "webload", both without their quotes.
	Env  []string
	Args []string
	// Background says it ends with "&": it serves while the block's next commands run.
	Background bool
	// Stdout is the file its output is redirected to ("> FILE"), "" for none; Piped says its
	// output goes to another program ("| jq").
	Stdout string
	Piped  bool
	// Expands says a word holds what only the shell gives a value: a variable ($port), a
	// command's output ($(date)) or a file pattern (shard-*.json).
	Expands bool
}

// shellLanguages are the info strings of the code blocks whose lines are shell commands.
var shellLanguages = map[string]bool{"": true, "sh": true, "bash": true, "shell": true, "console": true, "zsh": true}

// assignment is a NAME=value word before a command.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// Commands is every webload command in markdown's shell code blocks, in order: a line (with
// its continuation lines) whose command, after any NAME=value assignments, is webload, a path
// ending in /webload, or "go run ./cmd/webload". A line holding several commands ("a && b",
// "a | b", "a; b") gives each that is webload's. Lines that are no commands, such as comments
// and the go tool's install and build of webload, are skipped.
func Commands(markdown string) []Command {
	var out []Command
	var pending strings.Builder // a command continued with "\" at the end of its line
	start := 0
	walk(markdown, func(i int, line string, block int, info string) {
		lang, _, _ := strings.Cut(strings.ToLower(info), " ")
		if block < 0 || !shellLanguages[lang] {
			return
		}
		if pending.Len() == 0 {
			start = i
		}
		trimmed := strings.TrimRight(line, " \t")
		if strings.HasSuffix(trimmed, `\`) && !strings.HasSuffix(trimmed, `\\`) {
			pending.WriteString(strings.TrimSuffix(trimmed, `\`) + " ")
			return
		}
		pending.WriteString(line)
		text := strings.TrimSpace(pending.String())
		pending.Reset()
		text = strings.TrimPrefix(text, "$ ") // a console block's prompt
		for _, seg := range segments(lex(text)) {
			if c, ok := commandOf(seg); ok {
				c.Line, c.Block, c.Text = start+1, block, text
				out = append(out, c)
			}
		}
	})
	return out
}

// token is a shell word or operator.
type token struct {
	word    string
	op      string // "|", "||", "&", "&&", ";", ">", ">>", ">&", "<"; "" for a word
	expands bool
}

// lex splits a command line into words and operators as a POSIX shell would, far enough for
// documentation: quotes, backslashes, comments and the operators above; expansions are
// marked, not made.
func lex(s string) []token {
	var toks []token
	var w strings.Builder
	inWord, expands := false, false
	flush := func() {
		if inWord {
			toks = append(toks, token{word: w.String(), expands: expands})
		}
		w.Reset()
		inWord, expands = false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			flush()
			return toks // a comment to the end of the line
		case c == '\'':
			inWord = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				end = len(s) - i - 1
			}
			w.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				} else if s[i] == '$' || s[i] == '`' {
					expands = true
				}
				w.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			w.WriteByte(s[i])
		case strings.IndexByte("|&;<>", c) >= 0:
			if (c == '>' || c == '<') && inWord && strings.Trim(w.String(), "0123456789") == "" {
				inWord = false // a file descriptor's number (2>&1), no word
			}
			flush()
			op := string(c)
			if i+1 < len(s) && (s[i+1] == c && c != ';' && c != '<' || c == '>' && s[i+1] == '&') {
				op += s[i+1 : i+2] // ||, &&, >> and >& (2>&1)
				i++
			}
			toks = append(toks, token{op: op})
		default:
			inWord = true
			if strings.IndexByte("$`*?", c) >= 0 {
				expands = true
			}
			w.WriteByte(c)
		}
	}
	flush()
	return toks
}

// segment is one command of a line: its words, where its output goes and how it ends.
type segment struct {
	words      []token
	stdout     string
	background bool
	piped      bool
}

// segments splits tokens at the operators that end a command.
func segments(toks []token) []segment {
	var out []segment
	var cur segment
	for i := 0; i < len(toks); i++ {
		switch t := toks[i]; t.op {
		case "":
			cur.words = append(cur.words, t)
		case ">", ">>", "<", ">&":
			if i+1 < len(toks) && toks[i+1].op == "" {
				if t.op == ">" || t.op == ">>" {
					cur.stdout = toks[i+1].word
				}
				i++
			}
		default:
			cur.background, cur.piped = t.op == "&", t.op == "|"
			out = append(out, cur)
			cur = segment{}
		}
	}
	return append(out, cur)
}

// commandOf reads a segment as a webload command, if it is one.
func commandOf(seg segment) (Command, bool) {
	c := Command{Stdout: seg.stdout, Background: seg.background, Piped: seg.piped}
	words := seg.words
	for len(words) > 0 && (words[0].word == "do" || words[0].word == "then" || words[0].word == "else") {
		words = words[1:] // a loop's or condition's body on the keyword's line
	}
	for len(words) > 0 && assignment.MatchString(words[0].word) {
		c.Env = append(c.Env, words[0].word)
		c.Expands = c.Expands || words[0].expands
		words = words[1:]
	}
	switch {
	case len(words) >= 3 && words[0].word == "go" && words[1].word == "run" && path.Base(words[2].word) == "webload":
		words = words[3:]
	case len(words) > 0 && !words[0].expands && path.Base(words[0].word) == "webload":
		words = words[1:]
	default:
		return Command{}, false
	}
	c.Args = []string{}
	for _, w := range words {
		c.Args = append(c.Args, w.word)
		c.Expands = c.Expands || w.expands
	}
	return c, true
}
