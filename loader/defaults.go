package loader

import "time"

// DefaultConfig is the run webload makes when told nothing but the URLs: 25 users that visit
// pages like browsers (page resources, cookies, redirects, compressed answers), each request
// bounded by 30 seconds. The zero Config is siege's plain mode instead, one request per URL and
// nothing more; the command line, the demo and the tests all start from this one.
//
// UserAgent is left empty, which sends none: the caller names itself (webload sends
// "webload/VERSION"). MaxUsers caps the open model only, so a closed run sets it back to 0 to
// keep it out of the result. HeaderBuffer stays 0, which picks 16 KiB, less above 2 560 requests
// in flight, at least 4 KiB.
func DefaultConfig() Config {
	return Config{
		Users:           25,
		MaxUsers:        10000,
		Timeout:         30 * time.Second,
		ContentType:     "application/x-www-form-urlencoded",
		AcceptEncoding:  "gzip, deflate, br",
		Parser:          true,
		Cookies:         true,
		FollowRedirects: true,
	}
}
