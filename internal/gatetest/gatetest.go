// Package gatetest holds the result the tests of gates and of the verdicts around them judge.
package gatetest

import "github.com/webload/webload/stats"

// Report is a run worked out by hand: one page fetched by GET (with a query) and posted to.
func Report() *stats.Report {
	return &stats.Report{
		Transactions:           990,
		Availability:           99,
		ElapsedTime:            30,
		ResponseTime:           0.25,
		TransactionRate:        99.996,
		Throughput:             1.5,
		Concurrency:            8.25,
		SuccessfulTransactions: 980,
		FailedTransactions:     10,
		LongestTransaction:     12.5,
		ShortestTransaction:    0.002,
		Requests:               1000,
		Percentiles:            stats.Percentiles{P50: 0.2, P90: 0.6, P95: 0.812345, P99: 1.5, P999: 10, Max: 12.5},
		URLs: []stats.URLStats{
			{Method: "GET", URL: "http://shop.test:8080/checkout?step=1", Hits: 600, Failures: 0,
				Mean: 0.1, P50: 0.09, P95: 1.1, P99: 0.9, Max: 1.2, Bytes: 6000},
			{Method: "POST", URL: "http://shop.test:8080/checkout", Hits: 390, Failures: 10,
				Mean: 0.4, P50: 0.35, P95: 1.1, P99: 2.1, Max: 12.5, Bytes: 0},
		},
	}
}
