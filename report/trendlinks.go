package report

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// NightLink is the address, relative to the trend page written at pagePath, of the own report
// of the night saved at resultPath: NAME.html beside NAME.json, when that file exists; "" when
// it does not. The address is relative so that the history folder and its trend page can be
// moved or served together; a name with a colon or a space stays one path (url.URL escapes it).
func NightLink(pagePath, resultPath string) string {
	own := strings.TrimSuffix(resultPath, filepath.Ext(resultPath)) + ".html"
	if info, err := os.Stat(own); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	from, err := filepath.Abs(filepath.Dir(pagePath))
	if err != nil {
		return ""
	}
	to, err := filepath.Abs(own)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(from, to)
	if err != nil {
		return "" // another volume: no relative address reaches it
	}
	return (&url.URL{Path: filepath.ToSlash(rel)}).String()
}
