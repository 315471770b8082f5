package report

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"html/template"
	"strings"
)

// uplotVersion is the vendored uPlot's version (see assets/README.md to update it).
const uplotVersion = "1.6.32"

//go:embed assets/common.js assets/page.html assets/report.css assets/report.js
//go:embed assets/trends.html assets/trends.css assets/trends.js
//go:embed assets/uPlot.iife.min.js assets/uPlot.min.css assets/uPlot.LICENSE
var assets embed.FS

// The page's parts, read once: they are compiled in and never change.
var (
	commonJS  = mustRead("assets/common.js")
	reportCSS = mustRead("assets/report.css")
	reportJS  = mustRead("assets/report.js")
	trendsCSS = mustRead("assets/trends.css")
	trendsJS  = mustRead("assets/trends.js")
	uplotCSS  = mustRead("assets/uPlot.min.css")
	uplotJS   = licensedUPlot(mustRead("assets/uPlot.iife.min.js"), mustRead("assets/uPlot.LICENSE"))

	pageTemplate   = template.Must(template.New("page.html").ParseFS(assets, "assets/page.html"))
	trendsTemplate = template.Must(template.New("trends.html").ParseFS(assets, "assets/trends.html"))

	// contentSecurityPolicy lets the page run its own three scripts and nothing else, and load
	// nothing at all: a report that someone edits, or a future change, cannot start fetching
	// from the network without the browser refusing it.
	contentSecurityPolicy = policy(reportJS)
	trendsPolicy          = policy(trendsJS)
)

// pageAssets fill assets/page.html. Only Data varies from page to page.
type pageAssets struct {
	CSP           string
	UPlotCSS, CSS template.CSS
	Data          template.JS // the page's data as JSON, escaped so it cannot close its element
	UPlotJS, JS   template.JS
	// CommonJS is common.js, what the pages' scripts share; it runs before JS.
	CommonJS template.JS
}

func mustRead(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic("report: missing embedded asset " + name) // a build without its assets is a bug
	}
	return string(b)
}

// uplotBanner opens uPlot's minified file; it names the project's web address, which would be
// the page's only one outside its data. The page carries uPlot's whole licence instead.
const uplotBanner = "/*! https://github.com/leeoniya/uPlot (v" + uplotVersion + ") */\n"

// licensedUPlot replaces uPlot's banner with its licence (the MIT licence asks that copies
// carry it), naming the version.
func licensedUPlot(js, license string) string {
	if !strings.HasPrefix(js, uplotBanner) {
		panic("report: assets/uPlot.iife.min.js is not uPlot " + uplotVersion) // see assets/README.md
	}
	return "/*! uPlot " + uplotVersion + "\n\n" + strings.ReplaceAll(license, "*/", "* /") + "\n*/\n" +
		strings.TrimPrefix(js, uplotBanner)
}

// policy lets a page run uPlot, common.js and its own script js, and nothing else.
func policy(js string) string {
	return "default-src 'none'; script-src " + scriptHash(uplotJS) + " " + scriptHash(commonJS) + " " + scriptHash(js) +
		"; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
}

// scriptHash is a Content-Security-Policy source that allows one inline script, by its text.
func scriptHash(js string) string {
	sum := sha256.Sum256([]byte(js))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
