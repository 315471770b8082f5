// Package urls reads siege-format URL files so that existing siege setups can
// be pointed at webload unchanged.
//
// A file is read line by line. Blank lines and lines starting with '#' are
// skipped. A line such as NAME=value defines a variable; every other line is
// expanded ($(NAME), ${NAME}, $NAME, with \$ for a literal dollar) and then read
// as
//
//	URL [METHOD [-T content/type;] [BODY | <bodyfile]]
//
// The grammar follows siege where siege is sound and departs from it where
// siege silently does something surprising: undefined variables, unknown
// schemes, bad ports and over-long lines are reported as errors naming the
// file and line instead of being dropped or replaced by empty text.
//
// Two rules here serve the rest of webload too: Expander is the one $-variable expander (URL
// files, URL arguments, siegerc files), and HostPattern is the one rule by which a URL is on
// a host (redirects, page resources, secret headers, the host filter of an import).
package urls
