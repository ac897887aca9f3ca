# Shared by e2e.sh and chaos.sh: classpath, free ports, a throwaway certificate, the API server and the controller.
# Every process started here is recorded and killed on exit.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -n "${JFR_DIR:-}" ]]; then mkdir -p "$JFR_DIR" && JFR_DIR="$(cd "$JFR_DIR" && pwd)"; fi  # before the cd below
cd "$ROOT"
WORK="$(mktemp -d /tmp/sluice-bench.XXXXXX)"
STARTED=()

cleanup() {
  local rc=$?
  disown -a 2>/dev/null || true  # no "Killed" lines for what we end ourselves
  if [[ -n "${JFR_DIR:-}" ]]; then stop_gently; fi
  if [[ -f "$WORK/controller.pid" ]]; then kill -9 "$(cat "$WORK/controller.pid")" 2>/dev/null || true; fi
  for p in "${STARTED[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  if [[ $rc -ne 0 || -n "${KEEP_LOGS:-}" ]]; then echo "logs kept in $WORK" >&2; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# With JFR_DIR the processes get SIGTERM first and up to 30 s to write their recordings.
stop_gently() {
  local pids=("${STARTED[@]}") deadline=$((SECONDS + 30))
  if [[ -f "$WORK/controller.pid" ]]; then pids+=("$(cat "$WORK/controller.pid")"); fi
  kill -TERM "${pids[@]}" 2>/dev/null || true
  while (( SECONDS < deadline )) && kill -0 "${pids[@]}" 2>/dev/null; do sleep 0.5; done
}

die() { echo "$(basename "$0"): $*" >&2; exit 2; }

# The harness classpath: BENCH_CLASSPATH (the test suite passes its own), else built once by Maven.
# SLUICE_APP / SLUICE_CRDS: another build of the controller (default: this tree's target/quarkus-app, target/kubernetes).
APP="${SLUICE_APP:-target/quarkus-app}"
CRDS="${SLUICE_CRDS:-target/kubernetes}"

classpath() {
  [[ -f "$APP/quarkus-run.jar" ]] || die "$APP/quarkus-run.jar missing; run ./mvnw package -DskipTests first"
  [[ -f target/test-classes/dev/sluice/bench/LoadDriver.class ]] || die "harness not compiled; run ./mvnw test-compile (or package)"
  if [[ -n "${BENCH_CLASSPATH:-}" ]]; then CP="$BENCH_CLASSPATH"; return; fi
  if [[ ! -s target/test-classpath.txt || pom.xml -nt target/test-classpath.txt ]]; then
    ./mvnw -B -q -o dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test \
      || ./mvnw -B -q dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
  fi
  # a copy, so that recompiling during a long run does not change the classes under it
  cp -r target/classes "$WORK/classes" && cp -r target/test-classes "$WORK/test-classes"
  CP="$WORK/test-classes:$WORK/classes:$(cat target/test-classpath.txt)"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_http URL SECONDS: until URL answers at all (any status).
wait_http() {
  local url=$1 deadline=$((SECONDS + $2))
  until curl -s -o /dev/null --max-time 2 "$url"; do
    (( SECONDS < deadline )) || die "nothing answers at $url after $2 s"
    sleep 0.2
  done
}

# The controller's certificate (webhooks, visibility, management port): the driver checks readiness over HTTPS at
# 127.0.0.1 and trusts this certificate alone, so it names that address.
make_tls() {
  mkdir -p "$WORK/tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$WORK/tls/tls.key" -out "$WORK/tls/tls.crt" >/dev/null 2>&1 || die "openssl could not make a certificate"
}

# Profiling and extra JVM flags per process (each a space-separated list, as CONTROLLER_EXTRA_FLAGS below):
#   API_SERVER_EXTRA_FLAGS, DRIVER_EXTRA_FLAGS, PROXY_EXTRA_FLAGS
#   JFR_DIR=dir  records every Java process with JFR (settings=profile) into dir/apiserver.jfr, dir/driver.jfr,
#                dir/proxy.jfr and dir/controller-N.jfr (N counts restarts); see bench/jfr-top.sh to read them.
jfr_flags() {
  if [[ -n "${JFR_DIR:-}" ]]; then
    echo "-XX:StartFlightRecording=filename=$JFR_DIR/$1.jfr,settings=profile,dumponexit=true"
  fi
}

start_api_server() {
  API_PORT=$(free_port)
  # shellcheck disable=SC2086,SC2046 # flag lists
  java -Xmx2g -XX:+UseParallelGC ${API_SERVER_EXTRA_FLAGS:-} $(jfr_flags apiserver) -cp "$CP" dev.sluice.bench.ApiServer \
    "$API_PORT" ${API_SERVER_FLAGS:-} >"$WORK/apiserver.log" 2>&1 &
  API_PID=$!
  STARTED+=($API_PID)
  wait_http "http://127.0.0.1:$API_PORT/bench/writes" 60
}

# NMT_FILE=path: run the controller with native memory tracking and write its summary there at the end of the run.
if [[ -n "${NMT_FILE:-}" ]]; then CONTROLLER_EXTRA_FLAGS="${CONTROLLER_EXTRA_FLAGS:-} -XX:NativeMemoryTracking=summary"; fi

# The JVM flags the Helm chart ships for the controller (values.yaml controller.jvm, templates/_helpers.tpl); the
# chart tests check that this list is the chart's default JDK_JAVA_OPTIONS (ChartRenderTest).
CONTROLLER_JVM_FLAGS=(-XX:+UseSerialGC -Xms16m -Xmx320m -XX:MaxMetaspaceSize=96m -XX:+ExitOnOutOfMemoryError -XX:TieredStopAtLevel=1 -XX:TrimNativeHeapInterval=1000 -XX:MinHeapFreeRatio=20 -XX:MaxHeapFreeRatio=40 -XX:MaxNewSize=32m)

# start_controller API_URL: the built jar in controller mode; its pid goes to $WORK/controller.pid.
CONTROLLER_STARTS=0
start_controller() {
  CONTROLLER_STARTS=$((CONTROLLER_STARTS + 1))
  # A bearer token, as a pod's service account has: without one, fabric8 looks for credentials again (reading
  # kubeconfig files) before every request once its first minute is over, which a cluster install never does.
  # shellcheck disable=SC2086,SC2046 # CONTROLLER_EXTRA_FLAGS: extra JVM flags for a measurement (e.g. native memory tracking)
  KUBERNETES_AUTH_TOKEN=sluice-bench java "${CONTROLLER_JVM_FLAGS[@]}" ${CONTROLLER_EXTRA_FLAGS:-} $(jfr_flags "controller-$CONTROLLER_STARTS") \
    -Dsluice.mode=controller \
    -Dquarkus.kubernetes-client.api-server-url="$1" \
    -Dquarkus.kubernetes-client.trust-certs=true \
    -Dsluice.leader-election.namespace=default \
    -Dsluice.leader-election.lease-duration="${LEASE_DURATION:-15s}" \
    -Dsluice.tls.dir="$WORK/tls" \
    -Dquarkus.http.ssl-port="$HTTPS_PORT" -Dquarkus.http.port="$HTTP_PORT" \
    -Dquarkus.management.port="$MGMT_PORT" \
    -Dsluice.visibility.port="${VISIBILITY_PORT:=$(free_port)}" \
    -jar "$APP/quarkus-run.jar" >>"$WORK/controller.log" 2>&1 &
  echo $! >"$WORK/controller.pid"
}

# wait_file FILE SECONDS PID: until FILE exists, or fail if PID died.
wait_file() {
  local deadline=$((SECONDS + $2))
  until [[ -f "$1" ]]; do
    kill -0 "$3" 2>/dev/null || die "the load driver ended before setting up; see $WORK/driver.log"
    (( SECONDS < deadline )) || die "no $1 after $2 s"
    sleep 0.2
  done
}
