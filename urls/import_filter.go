package urls

import (
	"fmt"
	"mime"
	"regexp"
	"strings"
)

// Skip reasons of the path filters. Asset rules are reported one by one ("asset: load.php",
// "asset: *.css"), so users see which rule took which share of the log.
const (
	importSkipNoInclude = "no --include match"
	importSkipExclude   = "--exclude "
	importSkipAssetRule = "asset: "
)

// importAssetExts are the extensions of files browsers fetch while rendering a page
// (styles, scripts, images, fonts, media, source maps, manifests). A load test that replays
// them measures a CDN or nginx's sendfile, not the application.
var importAssetExts = []string{
	".css", ".js", ".mjs", ".map", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp",
	".avif", ".bmp", ".tif", ".tiff", ".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp4",
	".webm", ".mp3", ".ogg", ".wav", ".webmanifest",
}

// importAssetDirs are path prefixes that by convention hold only static files: framework
// build output, WordPress's themes, plugins and core files, MediaWiki's resources and skins
// (also under /w/, the layout of Wikipedia and of most wikis with short URLs).
var importAssetDirs = []string{
	"/static/", "/assets/", "/_next/static/", "/_nuxt/", "/wp-content/", "/wp-includes/",
	"/resources/", "/skins/", "/w/resources/", "/w/skins/",
}

// importAssetFiles are endpoints, matched on the path's last segment, that serve assets under
// a name without an asset extension. MediaWiki's load.php bundles styles and scripts
// ("load.php?modules=site.styles&only=styles"): on a wiki it is about half of all requests.
var importAssetFiles = []string{"load.php", "favicon.ico", "robots.txt", "apple-touch-icon.png", "browserconfig.xml"}

// importAssetType reports whether a response's media type is one a browser fetches as a
// page's resource rather than navigating to it: styles, scripts, images, fonts, audio,
// video, WebAssembly and manifests. JSON, XML and text stay pages: they are usually an
// application's API, which is load worth measuring.
func importAssetType(mediaType string) bool {
	major, minor, _ := strings.Cut(mediaType, "/")
	switch major {
	case "image", "font", "audio", "video":
		return true
	case "text":
		return minor == "css" || minor == "javascript" || minor == "ecmascript"
	case "application":
		return minor == "javascript" || minor == "x-javascript" || minor == "ecmascript" ||
			minor == "wasm" || minor == "manifest+json" || minor == "vnd.ms-fontobject" ||
			strings.HasPrefix(minor, "font-") || strings.HasPrefix(minor, "x-font-")
	}
	return false
}

// importLoggedType finds a response content type among the quoted fields that follow the
// user agent, where nginx setups log "$sent_http_content_type" (the common and combined
// formats have none). The first quoted field that is one media type wins; "-" means none was
// sent, and fields that are not (addresses, hosts, Accept headers) are passed over.
func importLoggedType(rest string) string {
	for rest != "" {
		i := strings.IndexByte(rest, '"')
		if i < 0 {
			return ""
		}
		field, after, ok := importQuoted(rest[i:])
		if !ok {
			return ""
		}
		// A '*' is an Accept header's range ("*/*"), which says nothing of the response.
		if mt, _, err := mime.ParseMediaType(field); err == nil && strings.Contains(mt, "/") && !strings.Contains(mt, "*") {
			return field
		}
		rest = after
	}
	return ""
}

// importAssetRule names the rule by which a request is a static asset, or returns "" for a
// page. A logged content type decides when there is one; otherwise the path does (the query
// is ignored: "/img.php?f=a.png" is a script).
func importAssetRule(target, ctype string) string {
	if ctype != "" && ctype != "-" {
		if mt, _, err := mime.ParseMediaType(ctype); err == nil {
			if importAssetType(mt) {
				return importSkipAssetRule + "content type " + mt
			}
			return ""
		}
	}
	p := importPath(target)
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	p = strings.ToLower(p)
	for _, d := range importAssetDirs {
		if strings.HasPrefix(p, d) {
			return importSkipAssetRule + "under " + d
		}
	}
	name := p[strings.LastIndexByte(p, '/')+1:]
	for _, f := range importAssetFiles {
		if name == f {
			return importSkipAssetRule + f
		}
	}
	for _, ext := range importAssetExts {
		if strings.HasSuffix(name, ext) {
			return importSkipAssetRule + "*" + ext
		}
	}
	return ""
}

// importIsAsset reports whether a request target is a static asset by its path alone.
func importIsAsset(target string) bool { return importAssetRule(target, "") != "" }

// importPath is a row's path and query: a full URL loses its scheme and host, so --include and
// --exclude patterns read the same on exports of full URLs and on logs of paths.
func importPath(target string) string {
	if _, _, rest, ok := importSplitFull(target); ok {
		return rest
	}
	return target
}

// compileImportPatterns compiles --include or --exclude, naming the flag in the error.
func compileImportPatterns(flag string, exprs []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(exprs))
	for _, e := range exprs {
		re, err := regexp.Compile(e)
		if err != nil {
			return nil, fmt.Errorf("bad %s %q: %w", flag, e, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// pathSkip applies --include, the asset rule (access logs only: exports list page views)
// and --exclude, in that order, and returns the reason a row is dropped or "". A row an
// --include pattern matches is kept even if it is an asset: the user asked for it by name.
func (im *importer) pathSkip(target, ctype string, log bool) string {
	p := importPath(target)
	included := false
	if len(im.include) > 0 {
		for _, re := range im.include {
			if included = re.MatchString(p); included {
				break
			}
		}
		if !included {
			return importSkipNoInclude
		}
	}
	if log && !included && !im.opt.IncludeAssets {
		if rule := importAssetRule(target, ctype); rule != "" {
			return rule
		}
	}
	for i, re := range im.exclude {
		if re.MatchString(p) {
			return importSkipExclude + im.opt.Exclude[i]
		}
	}
	return ""
}
