package urls

import (
	"strings"
	"testing"
)

// A line that starts like a directive ("#@") but names none webload knows is an error naming
// the file and line: a misspelt #@check read as a comment would drop its check unnoticed.
// siege still reads such a line as a comment; webload refuses it.
func TestUnknownDirectives(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line, want string
	}{
		{"blank after the at", "#@ check status==200", `u.txt:2: unknown directive "#@": want #@check, #@extract or #@weight (did you mean #@check?)`},
		{"colon", "#@check: status==200", `u.txt:2: unknown directive "#@check:": want #@check, #@extract or #@weight (did you mean #@check?)`},
		{"typo", "#@chek status==200", `u.txt:2: unknown directive "#@chek": want #@check, #@extract or #@weight (did you mean #@check?)`},
		{"capital", "#@Check status==200", `u.txt:2: unknown directive "#@Check": want #@check, #@extract or #@weight (did you mean #@check?)`},
		{"indented", "  #@extarct token regex:t=(\\w+)", `u.txt:2: unknown directive "#@extarct": want #@check, #@extract or #@weight (did you mean #@extract?)`},
		{"plural", "#@checks are below", `u.txt:2: unknown directive "#@checks": want #@check, #@extract or #@weight (did you mean #@check?)`},
		{"extract glued to a word", "#@extract-me", `u.txt:2: unknown directive "#@extract-me": want #@check, #@extract or #@weight (did you mean #@extract?)`},
		{"nothing like one", "#@author bob", `u.txt:2: unknown directive "#@author": want #@check, #@extract or #@weight; a comment starts with "# "`},
		{"bare", "#@", `u.txt:2: unknown directive "#@": want #@check, #@extract or #@weight; a comment starts with "# "`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(strings.NewReader("http://h/a\n"+tc.line+"\nhttp://h/b\n"), "u.txt", "", Options{})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// Comments stay comments, whatever follows their "#", and the known directives are read.
func TestDirectivesAndComments(t *testing.T) {
	t.Parallel()
	in := "# @check is a word here\n#check\n#!/bin/false\n##@check\n#@check status==200\n#@weight 2\n#@extract t regex:t=(\\w+)\nhttp://h/a\n"
	got, err := Parse(strings.NewReader(in), "u.txt", "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Checks) != 1 || got[0].Weight != 2 || len(got[0].Extracts) != 1 {
		t.Errorf("targets %+v", got)
	}
}
