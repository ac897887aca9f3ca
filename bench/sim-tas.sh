#!/usr/bin/env bash
# The engine's cost per admission with topology-aware scheduling against the same run without it, in one run:
# Kueue's baseline as it is, the baseline on a TAS flavor over NODES (every Workload placed, implied TAS), Kueue's
# TAS benchmark (kueue-tas) on its own 640 nodes, and kueue-tas on NODES. cpu_s is the engine's CPU time (robust on
# a busy machine); us/adm is that per admission (re-admissions after preemption included).
# Usage: bench/sim-tas.sh [JAR]   (default target/quarkus-app/quarkus-run.jar; SIM_CMD overrides the command;
# NODES overrides blocks=8,racks=8,hosts=16, 1,024 nodes; SCALE, default 1, scales the workload streams)
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=${1:-target/quarkus-app/quarkus-run.jar}
if [[ -z "${SIM_CMD:-}" ]]; then
  [[ -f "$JAR" ]] || { echo "no $JAR: run ./mvnw package -DskipTests first" >&2; exit 2; }
  SIM_CMD="java -jar $JAR simulate"
fi
NODES=${NODES:-blocks=8,racks=8,hosts=16}
SCALE=${SCALE:-1}

field() { grep -o "\"$1\": [^,}]*" <<<"$2" | head -1 | sed 's/.*: //'; }
object() { grep -o "\"$1\": {[^}]*}" <<<"$2" | head -1 | sed 's/^[^{]*//'; }

printf '%-44s %9s %10s %9s %8s %8s %8s  %s\n' run workloads admissions makespan wall_s cpu_s us/adm "avg time to admission (s)"
run() {
  local name=$1; shift
  local s
  s=$($SIM_CMD "$@" --scale "$SCALE" --output json | tail -1)
  local adm cpu
  adm=$(field admissions "$s"); cpu=$(field cpuSeconds "$s")
  printf '%-44s %9s %10s %9s %8s %8s %8s  %s\n' "$name" "$(field workloads "$s")" "$adm" "$(field makespan "$s")" \
    "$(field wallSeconds "$s")" "$cpu" "$(awk -v c="$cpu" -v a="$adm" 'BEGIN { printf "%.0f", c * 1e6 / a }')" \
    "$(object averageTimeToAdmissionByClass "$s")"
}
run "kueue-baseline" --generate kueue-baseline
run "kueue-baseline --nodes $NODES" --generate kueue-baseline --nodes "$NODES"
run "kueue-tas (Kueue's 640 nodes)" --generate kueue-tas
run "kueue-tas --nodes $NODES" --generate kueue-tas --nodes "$NODES"
