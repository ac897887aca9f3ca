#!/usr/bin/env bash
# Replays Kueue's scheduler benchmark (baseline and large-scale) with `simulate --generate` and prints the
# Summary figures as a table. Usage: bench/sim.sh [JAR]   (default target/quarkus-app/quarkus-run.jar;
# build it with ./mvnw package -DskipTests). SIM_CMD overrides the whole command (e.g. a java -cp line).
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=${1:-target/quarkus-app/quarkus-run.jar}
if [[ -z "${SIM_CMD:-}" ]]; then
  [[ -f "$JAR" ]] || { echo "no $JAR: run ./mvnw package -DskipTests first" >&2; exit 2; }
  SIM_CMD="java -jar $JAR simulate"
fi

field() { grep -o "\"$1\": [^,}]*" <<<"$2" | head -1 | sed 's/.*: //'; }
object() { grep -o "\"$1\": {[^}]*}" <<<"$2" | head -1 | sed 's/^[^{]*//'; }

printf '%-18s %9s %9s %9s %9s %8s %8s %8s %11s  %s\n' variant workloads finished makespan preempts wall_s cpu_s rss_MB decisions/s "avg time to admission (s)"
for variant in kueue-baseline kueue-large-scale; do
  out=$(mktemp)
  /usr/bin/time -f '%M' -o "$out.rss" $SIM_CMD --generate "$variant" --output json | tail -1 > "$out"
  s=$(cat "$out")
  rss=$(( $(tail -1 "$out.rss") / 1024 ))
  printf '%-18s %9s %9s %9s %9s %8s %8s %8s %11s  %s\n' "$variant" "$(field workloads "$s")" "$(field finished "$s")" \
    "$(field makespan "$s")" "$(field preemptions "$s")" "$(field wallSeconds "$s")" "$(field cpuSeconds "$s")" "$rss" \
    "$(field decisionsPerSecond "$s")" "$(object averageTimeToAdmissionByClass "$s")"
  rm -f "$out" "$out.rss"
done
