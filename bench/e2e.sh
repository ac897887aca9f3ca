#!/usr/bin/env bash
# Kueue's scheduler benchmark end to end: the test API server (fabric8's mock server, CRUD mode) and the controller
# jar each in a process of its own; the load driver creates the queues and the Workloads on Kueue's schedule, plays
# the runner, audits every change, measures the API server alone, and prints a summary and one JSON line.
#
#   bench/e2e.sh kueue-baseline|kueue-large-scale [--scale X] [--timeout SECONDS] [--limit-writes N] [--history N]
#
# --history N: the history scenario: N finished Workloads stored before the controller starts (a year of jobs nothing
# deleted); the driver reports how long after its start the controller was ready and its peak RSS until then, then
# runs the scenario on top.
#
# HISTO_FILE=path: the controller's class histogram of live objects (after a full GC) and heap at the end of the run;
# with HISTO_AT=S also at S seconds into the run, into path.mid (while Workloads are pending).
#
# Needs ./mvnw package -DskipTests (the jar and the compiled harness). See bench/RESULTS.md.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

[[ $# -ge 1 ]] || die "usage: bench/e2e.sh kueue-baseline|kueue-large-scale [--scale X] [--timeout S] [--limit-writes N]"
SCENARIO=$1; shift
SCALE=1; TIMEOUT=900; LIMIT_WRITES=2000; HISTORY=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --scale) SCALE=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --limit-writes) LIMIT_WRITES=$2; shift 2 ;;
    --history) HISTORY=$2; shift 2 ;;
    *) die "unknown option $1" ;;
  esac
done

classpath
make_tls
start_api_server
MGMT_PORT=$(free_port); HTTPS_PORT=$(free_port); HTTP_PORT=$(free_port)
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(java -version 2>&1 | head -1)"

# shellcheck disable=SC2086,SC2046 # flag lists
java -Xmx2g ${DRIVER_EXTRA_FLAGS:-} $(jfr_flags driver) -cp "$CP" dev.sluice.bench.LoadDriver --scenario "$SCENARIO" --scale "$SCALE" --timeout "$TIMEOUT" \
  --api "http://127.0.0.1:$API_PORT" --apiserver-pid "$API_PID" --crds "$CRDS" --setup-done-file "$WORK/setup.done" \
  --controller-ready-url "https://127.0.0.1:$MGMT_PORT/q/health/ready" --controller-ca "$WORK/tls/tls.crt" --controller-pid-file "$WORK/controller.pid" ${NMT_FILE:+--nmt-file "$NMT_FILE"} \
  ${HISTO_FILE:+--histo-file "$HISTO_FILE"} ${HISTO_AT:+--histo-at "$HISTO_AT"} \
  --limit-writes "$LIMIT_WRITES" --history "$HISTORY" > >(tee "$WORK/driver.log") 2> >(tee "$WORK/driver.err" >&2) &
DRIVER=$!
STARTED+=($DRIVER)
wait_file "$WORK/setup.done" $((120 + HISTORY / 40)) "$DRIVER"  # seeded at ~4,000/s; the bound allows for the HTTP fallback (--scan), ~60/s
start_controller "http://127.0.0.1:$API_PORT"
set +e
wait "$DRIVER"
RC=$?
set -e
exit $RC
