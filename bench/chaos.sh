#!/usr/bin/env bash
# The benchmark's load with faults: the controller talks to the API server through a fault proxy (a share of its
# writes fail with 409, 500 or 429 + Retry-After, or fail with 500 after being applied; requests are delayed;
# watches are cut) and is killed with SIGKILL and restarted at random moments. The auditor watches the API server
# directly and checks every change; the run fails on any violation or any Workload lost or unfinished.
#
#   bench/chaos.sh [kueue-baseline|kueue-large-scale] [--scale X] [--kills N] [--write-failures SHARE]
#                  [--latency-ms MAX] [--watch-cut-ms MIN:MAX] [--timeout SECONDS] [--seed N]
#                  [--never-ready SHARE]
#
# --never-ready SHARE: that share of the Workloads never gets ready (the runner never finishes them); the controller
# runs with a short waitForPodsReady (timeout 8s, backoff 1s, backoffLimitCount 1), so each is evicted for
# PodsReadyTimeout, requeued, evicted again and deactivated, while the others run; the run fails unless all of them
# end deactivated.
#
# Defaults: kueue-baseline at scale 1, 3 kills, 5 % of writes failed, up to 20 ms latency, watches cut after
# 2-10 s. LEASE_DURATION (default 15s, as shipped) is how long a restarted controller waits for the dead one's Lease.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

SCENARIO=kueue-baseline
if [[ $# -gt 0 && $1 != --* ]]; then SCENARIO=$1; shift; fi
SCALE=1; KILLS=3; SHARE=0.05; LATENCY=20; CUT=2000:10000; TIMEOUT=900; SEED=$RANDOM; NEVER_READY=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --scale) SCALE=$2; shift 2 ;;
    --kills) KILLS=$2; shift 2 ;;
    --write-failures) SHARE=$2; shift 2 ;;
    --latency-ms) LATENCY=$2; shift 2 ;;
    --watch-cut-ms) CUT=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --never-ready) NEVER_READY=$2; shift 2 ;;
    *) die "unknown option $1" ;;
  esac
done
RANDOM=$SEED
if [[ $NEVER_READY != 0 ]]; then
  CONTROLLER_EXTRA_FLAGS="${CONTROLLER_EXTRA_FLAGS:-} -Dsluice.wait-for-pods-ready.timeout=8s \
    -Dsluice.wait-for-pods-ready.backoff-base-seconds=1 -Dsluice.wait-for-pods-ready.backoff-max-seconds=2 \
    -Dsluice.wait-for-pods-ready.backoff-limit-count=1 -Dsluice.wait-for-pods-ready.check-period=200ms"
fi

classpath
make_tls
start_api_server
PROXY_PORT=$(free_port); MGMT_PORT=$(free_port); HTTPS_PORT=$(free_port); HTTP_PORT=$(free_port)
# shellcheck disable=SC2086,SC2046 # flag lists
java -Xmx512m ${PROXY_EXTRA_FLAGS:-} $(jfr_flags proxy) -cp "$CP" dev.sluice.bench.FaultProxy "$PROXY_PORT" "$API_PORT" "$SHARE" "$LATENCY" "${CUT%%:*}" "${CUT##*:}" "$SEED" \
  >"$WORK/proxy.log" 2>&1 &
STARTED+=($!)
wait_http "http://127.0.0.1:$PROXY_PORT/bench/faults" 60
echo "machine: $(nproc) cores; seed $SEED; faults: $SHARE of writes, latency up to $LATENCY ms, watches cut after $CUT ms, $KILLS kills"

echo 0 >"$WORK/restarts"
# shellcheck disable=SC2086,SC2046 # flag lists
java -Xmx2g ${DRIVER_EXTRA_FLAGS:-} $(jfr_flags driver) -cp "$CP" dev.sluice.bench.LoadDriver --scenario "$SCENARIO" --scale "$SCALE" --timeout "$TIMEOUT" \
  --api "http://127.0.0.1:$API_PORT" --apiserver-pid "$API_PID" --crds "$CRDS" --setup-done-file "$WORK/setup.done" \
  --controller-ready-url "https://127.0.0.1:$MGMT_PORT/q/health/ready" --controller-ca "$WORK/tls/tls.crt" --controller-pid-file "$WORK/controller.pid" ${NMT_FILE:+--nmt-file "$NMT_FILE"} \
  --proxy-url "http://127.0.0.1:$PROXY_PORT" --restarts-file "$WORK/restarts" --never-ready "$NEVER_READY" \
  > >(tee "$WORK/driver.log") 2> >(tee "$WORK/driver.err" >&2) &
DRIVER=$!
STARTED+=($DRIVER)
wait_file "$WORK/setup.done" 120 "$DRIVER"
start_controller "http://127.0.0.1:$PROXY_PORT"

# Kill moments: uniformly random within the first part of the expected run (capacity bound, scaled).
case $SCENARIO in kueue-large-scale) SPAN=8 ;; *) SPAN=66 ;; esac
SPAN_MS=$(python3 -c "print(max(3000, int($SPAN * 1000 * $SCALE)))")
RESTARTS=0
for ((k = 0; k < KILLS; k++)); do
  sleep "$(python3 -c "import random; random.seed($SEED + $k); print(1 + random.random() * $SPAN_MS / 1000 / $KILLS)")"
  kill -0 "$DRIVER" 2>/dev/null || break
  kill -9 "$(cat "$WORK/controller.pid")" 2>/dev/null || true
  sleep 0.2
  start_controller "http://127.0.0.1:$PROXY_PORT"
  RESTARTS=$((RESTARTS + 1))
  echo "$RESTARTS" >"$WORK/restarts"
  echo "killed and restarted the controller ($RESTARTS)"
done
set +e
wait "$DRIVER"
RC=$?
set -e
exit $RC
