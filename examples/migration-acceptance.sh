#!/usr/bin/env bash
# Pre-migration acceptance: load the old stack and the new one the same way, three runs each,
# and accept the new stack only if it answers as the old one did and is not measurably slower.
#
#   OLD=http://10.0.0.1 NEW=http://10.0.0.2 ./migration-acceptance.sh urls.txt
#
# urls.txt uses $(SITE) for the host (see urls.txt in this folder); the script points it at
# each stack in turn. A list with production names instead runs against each stack by address
# with --resolve (see the README). With node exporters on the servers (OLD_METRICS,
# NEW_METRICS), LA and MEM are filled in as well. With each stack's database (DB_OLD, DB_NEW: a
# read-only account is enough), the table gets the database's side: QPS, Q/T (queries per
# transaction, where an N+1 query pattern shows) and Slow, and the verdict fails a stack that
# needs 10% more queries per page. Q/T is judged only when both stacks count statements: MySQL,
# MariaDB and PostgreSQL with pg_stat_statements do; PostgreSQL without it counts transactions,
# which compare marks "unlike" and does not judge. The password is hidden in every output.
#
#   DB_OLD=mysql://monitor:pass@10.0.0.1:3306/ DB_NEW=mysql://monitor:pass@10.0.0.2:3306/ \
#   OLD=http://10.0.0.1 NEW=http://10.0.0.2 ./migration-acceptance.sh urls.txt
set -euo pipefail
URLS=${1:-urls.txt}
OLD=${OLD:?set OLD to the old stack, e.g. http://10.0.0.1}
NEW=${NEW:?set NEW to the new stack, e.g. http://10.0.0.2}
PAUSE=${PAUSE:-30s}   # lets the server settle between runs
# An error page served with 200 is a failed transaction, not a fast answer.
CHECK=${CHECK:-'status<400 && body!~"(?i)database (query )?error"'}
LOAD=(-b -c 20 -r 50 -f "$URLS" --repeat 3 --repeat-pause "$PAUSE" --check "$CHECK")

SITE=$OLD webload "${LOAD[@]}" --label "MySQL 5.1 (old)" -o old.json \
  ${OLD_METRICS:+--server-metrics "$OLD_METRICS"} ${DB_OLD:+--db "$DB_OLD"}
# A broken gate (exit 1) still leaves new.json for the comparison below.
gate=0
SITE=$NEW webload "${LOAD[@]}" --label "Percona 5.6 (new)" -o new.json \
  ${NEW_METRICS:+--server-metrics "$NEW_METRICS"} ${DB_NEW:+--db "$DB_NEW"} \
  --assert 'availability>=99.9' --assert 'failed==0' || gate=$?

# The table for the ticket, and the verdict: significant regressions and any page that answers
# differently (its status mix, content or size) fail (exit 1).
webload compare --format md --per-url old.json new.json > comparison.md
LIMITS='p95=10%,rtime=10%,trate=5%'
# A result counts transactions, not statements, when its queries came from xact_commit.
counts_statements() { ! grep -q '"queries_source": *"xact_commit' "$1"; }
if [[ -n ${DB_OLD:-} && -n ${DB_NEW:-} ]] && counts_statements old.json && counts_statements new.json; then
  LIMITS+=',q/t=10%'
fi
webload compare --max-regression "$LIMITS" --max-content-changes 0 \
  --junit acceptance.xml old.json new.json
exit "$gate"
