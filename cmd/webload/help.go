package main

import (
	"strconv"
	"strings"
)

// The run's flags are many; --help groups them under these headings, in this order.
const (
	catLoad        = "Load"
	catRequests    = "URLs and requests"
	catBrowser     = "Browser-like visits"
	catOutput      = "Output"
	catGates       = "Gates and comparison"
	catDistributed = "Distributed runs"
	catDiagnostics = "Diagnostics"
)

// flagCategories is the order of the headings in --help. urfave/cli sorts them by name, which
// would put "Browser-like visits" before "Load"; the help template lists them in this order.
func flagCategories() []string {
	return []string{catLoad, catRequests, catBrowser, catOutput, catGates, catDistributed, catDiagnostics}
}

// inCategoryOrder rewrites one of urfave/cli's help templates (cli.AppHelpTemplate,
// cli.CommandHelpTemplate) to list the flag headings in flagCategories order. A flag of another
// category would vanish from the help, and a urfave/cli whose template no longer names
// visibleFlagCategoryTemplate would sort the headings by name again; the help test catches both.
func inCategoryOrder(tpl string) string {
	var b strings.Builder
	for _, name := range flagCategories() {
		// Same layout as urfave/cli's visibleFlagCategoryTemplate, for one category.
		b.WriteString(`{{range .VisibleFlagCategories}}{{if eq .Name ` + strconv.Quote(name) + `}}
   {{.Name}}

   {{$flglen := len .Flags}}{{range $i, $e := .Flags}}{{if eq (subtract $flglen $i) 1}}{{$e}}
{{else}}{{$e}}
   {{end}}{{end}}{{end}}{{end}}`)
	}
	return strings.Replace(tpl, `{{template "visibleFlagCategoryTemplate" .}}`, b.String(), 1)
}
