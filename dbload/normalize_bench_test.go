package dbload

import (
	"strings"
	"testing"
)

// A comparison normalises every listed statement of both sides once: a MediaWiki-sized digest
// (1 KiB, its longest) per call here.
func BenchmarkNormalizeStatement(b *testing.B) {
	text := "SELECT " + strings.Repeat("`rev_id` , `rev_page` , ", 40) + "`page_len` FROM `page` JOIN `revision` ON ( ( `page_id` = `rev_page` ) ) WHERE `page_id` IN (...) LIMIT ?, ..."
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = NormalizeStatement(text)
	}
}
