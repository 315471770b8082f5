package stats

// What the external tests (package stats_test, which may import the packages that judge a
// result) take from the internal ones.
var (
	LoadSaved      = loadSaved
	SessionTargets = sessionTargets
	SessionResult  = sessionResult
)
