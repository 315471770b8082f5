package urls

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// siteVariables are the names users give the site under test when they point one URL list at
// several stacks (SITE=http://127.0.0.1:8102 webload -f urls.txt). Only these are checked:
// environments hold many URL-valued variables (proxies, CI servers) that no list is meant
// to use.
var siteVariables = []string{"BASE", "BASEURL", "BASE_URL", "HOST", "ORIGIN", "SERVER", "SITE", "TARGET", "TARGET_URL"}

// SiteVariableWarnings reads a URL file and says when a site variable set in the environment
// (SITE, BASE_URL, TARGET, HOST...; only when its value is an http or https URL) cannot reach
// the requests: the file defines the variable itself, and its definition wins; or the file
// never uses it and names its hosts literally, as lists written by "urls import" without a
// $(SITE) base do. Without the warning the run silently loads the host written in the file.
// A list whose hosts all come from variables gets no warning. Read errors end the check
// quietly: parsing the file reports them.
func SiteVariableWarnings(r io.Reader, name string, getenv func(string) (string, bool)) []string {
	used := map[string]bool{}
	defined := map[string]int{}   // variable -> the line defining it
	values := map[string]string{} // variable -> its definition as written
	literal := ""                 // the first host written literally
	record := Expander{AnyBracketedName: true, Lookup: func(n string) (string, bool) {
		used[n] = true
		return "", true
	}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes+3)
	for n := 1; sc.Scan(); n++ {
		line := strings.Trim(sc.Text(), blanks+"\ufeff")
		if line == "" || line[0] == '#' {
			continue
		}
		if v, value, isVar := splitVariable(line); isVar {
			record.Expand(value) // errors are the parser's to report; uses are what count here
			if _, seen := defined[v]; !seen {
				defined[v], values[v] = n, value
			}
			continue
		}
		record.Expand(line)
		if host := literalHost(line); host != "" && literal == "" {
			literal = host
		}
	}
	var out []string
	for _, v := range siteVariables {
		value, ok := getenv(v)
		if !ok || !strings.HasPrefix(value, "http://") && !strings.HasPrefix(value, "https://") {
			continue
		}
		switch line, def := defined[v]; {
		case def && values[v] != value:
			out = append(out, fmt.Sprintf("%s is set (%s) but %s:%d defines %s, which wins over the environment", v, value, name, line, v))
		case !def && !used[v] && literal != "":
			out = append(out, fmt.Sprintf("%s is set (%s) but %s never uses $(%s): its URLs go to %s as written", v, value, name, v, literal))
		}
	}
	sort.Strings(out)
	return out
}

// literalHost returns the scheme and host a URL line names without a variable, or "" when a
// variable gives them ("$(SITE)/p", "http://$(HOST)/p").
func literalHost(line string) string {
	u, _, _ := strings.Cut(line, " ")
	u, _, _ = strings.Cut(u, "\t")
	prefix := ""
	if i := strings.Index(u, "://"); i >= 0 && !strings.Contains(u[:i], "$") {
		prefix, u = u[:i+3], u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	if u == "" || strings.Contains(u, "$") {
		return ""
	}
	return prefix + u
}
