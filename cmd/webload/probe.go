package main

import (
	"fmt"
	"io"

	"github.com/webload/webload/loader"
	"github.com/webload/webload/urls"
)

// probeURL is the URL of -g or -p, or "" for a load run.
func probeURL(o *runOptions) string {
	if o.print != "" {
		return o.print
	}
	return o.get
}

// probe makes the one request of -g or -p and prints it as siege does: the request's head, the
// response's head and, with -p, the body.
func probe(spec *runSpec, body bool, stdout io.Writer) error {
	t := spec.Targets[0]
	// The one request is no user's, so it has no row and no extracted value to fill in; sending
	// the reference as written would probe a URL no user requests.
	for _, tmpl := range []*urls.Template{t.URLVars, t.BodyVars} {
		if tmpl != nil {
			return usagef("-g/-p: $(%s) is a per-user variable, and the one request of -g or -p belongs to no user: write its value in the URL", tmpl.Names()[0])
		}
	}
	p, err := loader.ProbeOnce(spec.Config, t)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n%s\n", p.Request, p.Response)
	if body {
		_, err = stdout.Write(p.Body)
	}
	return err
}
