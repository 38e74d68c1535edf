#!/usr/bin/env bash
# Counts the instructions of a timing-independent ingest and drain (io.ankusa.bench.DrainInstructions)
# on two revisions, under valgrind's callgrind with the interpreter only, and prints each phase's count
# and the ratio of the second revision to the first. Needs valgrind (callgrind_control comes with it).
#
#   ankusa-bench/instructions-ab.sh BASE CHANGED [hooks] [tenants] [repeats]
#
# Each revision is built in a git worktree under the work directory (ANKUSA_AB_DIR, default
# target/instructions-ab of this module), its jars kept there and the worktree removed; the harness is
# compiled from this tree against each build. A second call with the same work directory reuses the builds.
set -euo pipefail
base=$1; changed=$2; hooks=${3:-1000}; tenants=${4:-1}; repeats=${5:-2}
module=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$module/.." && pwd)
work=${ANKUSA_AB_DIR:-$module/target/instructions-ab}
mkdir -p "$work"
harness=$module/src/main/java/io/ankusa/bench/DrainInstructions.java

# Each line: backend revision repeat R ingest COUNT drain COUNT. Prints changed / base per phase.
ratios() {
  awk -v b="$base" '{ if ($2 == b) { bi[$1] += $6; bd[$1] += $8 } else { ci[$1] += $6; cd[$1] += $8 } }
    END { for (x in bi) printf "%s: ingest %.4f, drain %.4f (changed / base, summed over repeats)\n", x,
      ci[x] / bi[x], cd[x] / bd[x] }' "$1"
}

build() { # revision -> $work/<rev>/classes and $work/<rev>/cp.txt
  local rev=$1 tree=$work/tree-$1
  [ -f "$work/$rev/cp.txt" ] && return
  rm -rf "$tree"
  git -C "$repo" worktree add -f --detach "$tree" "$rev" >/dev/null 2>&1
  (cd "$tree" && ./mvnw -B -q package dependency:build-classpath -Dmdep.outputFile=cp.txt -DskipTests \
      -Dspotbugs.skip -Dcheckstyle.skip -Dmaven.javadoc.skip -Dmaven.source.skip -Djacoco.skip \
      -pl ankusa-dispatch,ankusa-store-rocksdb,ankusa-store-lmdb -am)
  mkdir -p "$work/$rev/classes" "$work/$rev/jars"
  cp "$tree"/ankusa-*/target/ankusa-*-0.1.0-SNAPSHOT.jar "$work/$rev/jars/"
  # The modules' own jars from the build just made (never an installed copy), then their dependencies.
  { for m in dispatch store-rocksdb store-lmdb; do cat "$tree/ankusa-$m/cp.txt"; echo -n ":"; \
      echo -n "$tree/ankusa-$m/target/ankusa-$m-0.1.0-SNAPSHOT.jar:"; done; } | tr ':' '\n' | grep . \
      | sed -E "s#.*/(ankusa-[a-z-]+-0\.1\.0-SNAPSHOT\.jar)#$work/$rev/jars/\1#" \
      | awk '!seen[$0]++' | paste -sd: > "$work/$rev/cp.txt"
  git -C "$repo" worktree remove --force "$tree"
  javac --release 17 -d "$work/$rev/classes" -cp "$(cat "$work/$rev/cp.txt")" "$harness"
}

count() { # revision backend tag -> "ingest drain" instruction counts
  local rev=$1 backend=$2 marks=$work/marks-$1-$2-$3
  rm -rf "$marks"; mkdir -p "$marks"
  valgrind --tool=callgrind --callgrind-out-file="$marks/cg.out" java -Xint -Xms256m -Xmx256m -XX:+UseSerialGC \
      -cp "$work/$rev/classes:$(cat "$work/$rev/cp.txt")" io.ankusa.bench.DrainInstructions \
      "$backend" "$hooks" "$tenants" "$marks" "$work/stores" > "$marks/log" 2>&1 &
  local pid=$!
  for phase in ingest drain end; do
    while [ ! -f "$marks/$phase" ]; do
      kill -0 $pid 2>/dev/null || { cat "$marks/log" >&2; exit 1; }
      sleep 0.2
    done
    [ $phase = ingest ] || callgrind_control -d $phase $pid >/dev/null 2>&1
    callgrind_control -z $pid >/dev/null 2>&1
    touch "$marks/$phase.ack"
  done
  wait $pid
  echo "$(grep -m1 '^summary' "$marks/cg.out.1" | cut -d' ' -f2) $(grep -m1 '^summary' "$marks/cg.out.2" | cut -d' ' -f2)"
}

build "$base"; build "$changed"
echo "instructions per phase, $hooks hooks of $tenants tenant(s), -Xint; base $base, changed $changed"
for backend in rocksdb lmdb; do
  for r in $(seq 1 "$repeats"); do
    for rev in "$base" "$changed"; do
      read -r ingest drain <<< "$(count "$rev" "$backend" "$r")"
      echo "$backend $rev repeat $r ingest $ingest drain $drain"
    done
  done
done | tee "$work/counts.txt"
ratios "$work/counts.txt"
