#!/usr/bin/env bash
# Where a process spent its CPU, from a JFR recording (e.g. one written with JFR_DIR=dir bench/e2e.sh ...):
# the execution samples by thread, by method on top of the stack (self), and by method anywhere on the stack
# (inclusive, counted once per sample).
#
#   bench/jfr-top.sh FILE.jfr [ROWS] [FILTER]
#
# ROWS (default 25) per table; FILTER (a regular expression) keeps only the samples with a frame that matches it.
set -euo pipefail
[[ $# -ge 1 && -f $1 ]] || { echo "usage: bench/jfr-top.sh FILE.jfr [ROWS] [FILTER]" >&2; exit 2; }
jfr print --stack-depth 64 --events jdk.ExecutionSample "$1" | python3 -c '
import re, sys
from collections import Counter
rows = int(sys.argv[1]); keep = re.compile(sys.argv[2]) if sys.argv[2] else None
threads, self_, incl = Counter(), Counter(), Counter()
total = 0
def flush(thread, frames):
    global total
    if not frames or (keep and not any(keep.search(f) for f in frames)):
        return
    total += 1
    threads[thread] += 1
    self_[frames[0]] += 1
    for f in set(frames):
        incl[f] += 1
thread, frames, in_stack = "?", [], False
for line in sys.stdin:
    s = line.strip()
    if s.startswith("jdk.ExecutionSample"):
        thread, frames, in_stack = "?", [], False
    elif s.startswith("sampledThread"):
        m = re.search(r"\"(.*)\"", s)
        thread = re.sub(r"[-#]?\d+$", "-N", m.group(1)) if m else s
    elif s.startswith("stackTrace = ["):
        in_stack = True
    elif in_stack and s == "]":
        in_stack = False
    elif in_stack and s and s != "...":
        frames.append(re.sub(r"\s+line:.*$", "", s))
    elif s == "}":
        flush(thread, frames); frames = []
print("%d execution samples%s" % (total, " with a frame matching " + sys.argv[2] if keep else ""))
for title, c in (("by thread", threads), ("self (top frame)", self_), ("inclusive", incl)):
    print("\n== %s" % title)
    for k, v in c.most_common(rows):
        print("%6d %5.1f%%  %s" % (v, 100.0 * v / max(1, total), k))
' "${2:-25}" "${3:-}"
