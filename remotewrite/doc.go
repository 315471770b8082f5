// Package remotewrite pushes a run's figures to a Prometheus remote-write endpoint
// (--remote-write), protocol 1.0: a protobuf WriteRequest, snappy-compressed, POSTed with
// Content-Encoding: snappy and X-Prometheus-Remote-Write-Version: 0.1.0. Teams that watch their
// servers in Prometheus or Grafana then see the load beside them, and keep every run's figures
// after the run's own files are gone.
//
// Latencies go as native histograms (exponential buckets, schema 8: each bucket 0.27 % wide),
// converted from the run's HdrHistograms, so the shape of the distribution survives and
// histogram_quantile reads any percentile within the bucket of its transaction. The series,
// each with run="<--label>" when the run has a label and step="<users or rate>" in a ladder or a
// capacity search:
//
//	webload_requests_total                        counter    requests that ended
//	webload_transactions_total                    counter    requests that did not fail
//	webload_failures_total                        counter    failed transactions (siege's rules)
//	webload_response_time_seconds                 histogram  transactions' response times
//	webload_url_requests_total{method,url}        counter    the same per URL of the list
//	webload_url_failures_total{method,url}        counter
//	webload_url_response_time_seconds{method,url} histogram
//
// and once the run has ended, the report's own figures as gauges:
//
//	webload_transaction_rate                               transactions per second
//	webload_elapsed_seconds                                the run's length
//	webload_response_time_quantile_seconds{quantile}       p50, p90, p95, p99, p99.9
//	webload_response_time_max_seconds                      the longest transaction
//	webload_url_response_time_quantile_seconds{method,url,quantile}  p50, p95, p99
//
// The wire format is written with protowire (google.golang.org/protobuf) for the five
// messages it needs, and compressed with klauspost/compress's snappy: both were already
// dependencies, where Prometheus's own prompb package would pull in the whole server module.
package remotewrite
