package main

import (
	"fmt"
	"io"

	"github.com/webload/webload/loader"
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
	p, err := loader.ProbeOnce(spec.Config, spec.Targets[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n%s\n", p.Request, p.Response)
	if body {
		_, err = stdout.Write(p.Body)
	}
	return err
}
