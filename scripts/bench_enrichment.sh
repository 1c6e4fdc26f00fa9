#!/usr/bin/env bash
# bench_enrichment.sh — docking enrichment on DUD-E INHA: vsgrid's flexible docking against
# AutoDock Vina 1.2.3, same receptor, same box, same ligands; speed and ROC AUC / EF1% /
# adjusted logAUC (scripts/enrichment.py).
#
#   scripts/bench_enrichment.sh prepare      (dev machine, needs obabel; makes bench_inha/)
#   VSGRID=build/vsgrid scripts/bench_enrichment.sh   (the GPU machine: one command)
#
# Inputs (from the repository root):
#   data/inha/receptor.pdbqt       receptor, polar H, Gasteiger charges (data/SOURCES.md)
#   bench_inha/ (ignored)          made by 'prepare' from ../shared/data/dude/inha:
#     subset.mol2.gz               all 71 active records + decoy records 0, 20, 40, ... (file
#                                  order) = 187 records, as read (3D, H, DUD-E charges)
#     records.csv                  id,name,active,source,source_record: one row per record of
#                                  subset.mol2.gz, same order; id = r<index in the subset>
#     ligands_pdbqt.tar.gz         <id>_<name>.pdbqt per record (obabel -imol2 -opdbqt), for vina
#     failed.txt                   records obabel could not convert (listed, counted)
#     labels.csv                   name,active (1/0): one row per molecule name of the subset
#     actives_final.mol2.gz, decoys_final.mol2.gz, labels_full.csv: the whole DUD-E set (71 +
#                                  2318 records, 43 + 2300 names) copied, for VSG_LIBRARY
#   vina_bundle/ (ignored)         Debian's vina 1.2.3 with its libraries and loader
# DUD-E names repeat (protomers/tautomers of one molecule are several records with one name):
# every record is docked and scored (per-record id in the CSVs); a molecule's score is the best
# (lowest) over its records (enrichment.py), and molecules are what AUC/EF/logAUC count.
#
# Knobs: VSGRID (path to a built vsgrid, default build/vsgrid), OUT (default out/enrichment),
#   SKIP_VINA=1, VINA_EXH (default 8), VINA_LIMIT=N / VSG_LIMIT=N (first N records only: trials),
#   VINA_DEADLINE_S=S (start no vina job after S s; the next run resumes: ligands with a result
#   in $OUT/vina/out are kept, walls summed; VINA_FRESH=1 starts over), JOBS (default nproc),
#   VSG_ARGS (extra 'vsgrid screen' options, e.g. "--device gpu --exhaustiveness 8"),
#   VSG_LIBRARY (files to screen instead of the subset, e.g. "bench_inha/actives_final.mol2.gz
#   bench_inha/decoys_final.mol2.gz"; labels then from LABELS_FULL, default
#   bench_inha/labels_full.csv; vina still runs on the subset unless SKIP_VINA=1).
# Vina costs ~60-110 s a ligand on one core of the dev machine at exhaustiveness 8: the 187
# records take ~15-20 min on 16 cores; under a 10-minute command limit use VINA_DEADLINE_S=400
# and run twice (same OUT), or SKIP_VINA=1 for vsgrid-only runs.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
D=${VSG_SHARED_DATA:-$ROOT/../shared/data}/dude/inha
B=$ROOT/bench_inha
REC=$ROOT/data/inha/receptor.pdbqt
# The box: the crystal ligand's extent plus 4 Å on each side, as 'vsgrid maps --around
# crystal_ligand.mol2' gives it (center = mean of its 39 atoms; each side
# ceil(2 (largest distance from the center along that axis + 4)) = 20, 16, 16 Å).
CX=9.26101 CY=32.5309 CZ=60.5362 SX=20 SY=16 SZ=16

prepare() {
    command -v obabel > /dev/null || { echo "prepare: needs obabel (apt-get install openbabel)"; return 1; }
    [ -f "$D/actives_final.mol2.gz" ] || { echo "prepare: no $D"; return 1; }
    rm -rf "$B" && mkdir -p "$B/rec" "$B/pdbqt" || return 1
    # Split: one file per chosen record, rNNN.mol2, and records.csv.
    { zcat "$D/actives_final.mol2.gz" | awk -v src=actives -v every=1 -v act=1 -v base=0 -v dir="$B/rec" -f <(split_awk)
      n=$(zcat "$D/actives_final.mol2.gz" | grep -c '^@<TRIPOS>MOLECULE')
      zcat "$D/decoys_final.mol2.gz" | awk -v src=decoys -v every=20 -v act=0 -v base="$n" -v dir="$B/rec" -f <(split_awk)
    } > "$B/records.tmp" || return 1
    { echo "id,name,active,source,source_record"; cat "$B/records.tmp"; } > "$B/records.csv"
    rm -f "$B/records.tmp"
    : > "$B/failed.txt"
    local ok bad id name
    while IFS=, read -r id name _ _ _; do
        cat "$B/rec/$id.mol2" >> "$B/subset.mol2"
        if ! obabel -imol2 "$B/rec/$id.mol2" -opdbqt -O "$B/pdbqt/${id}_$name.pdbqt" > "$B/rec/$id.log" 2>&1 ||
            ! grep -q '^ATOM\|^HETATM' "$B/pdbqt/${id}_$name.pdbqt" 2> /dev/null; then
            rm -f "$B/pdbqt/${id}_$name.pdbqt"
            echo "$id $name: $(tr '\n' ' ' < "$B/rec/$id.log")" >> "$B/failed.txt"
        fi
    done < <(tail -n +2 "$B/records.csv")
    gzip -9n "$B/subset.mol2"
    ok=$(find "$B/pdbqt" -name '*.pdbqt' | wc -l); bad=$(wc -l < "$B/failed.txt")
    (cd "$B/pdbqt" && tar -cf - ./*.pdbqt) | gzip -9 > "$B/ligands_pdbqt.tar.gz"
    # labels: one row per name (a name is active if any of its records is).
    awk -F, 'NR > 1 { if (!($2 in a)) { o[++n] = $2; a[$2] = 0 } if ($3 == 1) a[$2] = 1 }
             END { print "name,active"; for (i = 1; i <= n; i++) print o[i] "," a[o[i]] }' \
        "$B/records.csv" > "$B/labels.csv"
    { echo "name,active"
      zcat "$D/actives_final.mol2.gz" | awk '/^@<TRIPOS>MOLECULE/ { getline; print $1 ",1" }' | awk '!s[$0]++'
      zcat "$D/decoys_final.mol2.gz" | awk '/^@<TRIPOS>MOLECULE/ { getline; print $1 ",0" }' | awk '!s[$0]++'
    } > "$B/labels_full.csv"
    cp "$D/actives_final.mol2.gz" "$D/decoys_final.mol2.gz" "$B/"
    rm -rf "$B/rec" "$B/pdbqt"
    local nrec nmol nact
    nrec=$(($(wc -l < "$B/records.csv") - 1)); nmol=$(($(wc -l < "$B/labels.csv") - 1))
    nact=$(grep -c ',1$' "$B/labels.csv")
    echo "prepare: $nrec records ($nmol molecules, $nact active) in $B/subset.mol2.gz;" \
         "obabel converted $ok to PDBQT, failed $bad (listed in $B/failed.txt)"
    ls -la "$B"
}

# awk program: keep records base.. whose index in this file is a multiple of 'every'; write each
# to dir/r<global index>.mol2 and print id,name,active,source,source_record.
split_awk() {
    cat << 'EOF'
/^@<TRIPOS>MOLECULE/ { rec++; keep = ((rec - 1) % every == 0); if (out) close(out); out = "";
                       if (keep) { id = sprintf("r%03d", base_kept + kept++); out = dir "/" id ".mol2"; nameline = 1 } }
keep { print > out; if (nameline == 2) { name = $1; print id "," name "," act "," src "," rec - 1 } nameline = nameline ? nameline + 1 : 0 }
BEGIN { base_kept = base }
EOF
}

if [ "${1:-}" = prepare ]; then prepare; exit $?; fi

VSGRID=${VSGRID:-build/vsgrid}
case $VSGRID in /*) ;; *) VSGRID=$ROOT/$VSGRID ;; esac
OUT=${OUT:-out/enrichment}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 1
JOBS=${JOBS:-$(nproc)}
VINA=$ROOT/vina_bundle/vina
VINA_EXH=${VINA_EXH:-8}
PY=$(command -v python3 || echo /usr/bin/python3)
[ -x "$VSGRID" ] || { echo "no vsgrid at $VSGRID (VSGRID=path)"; exit 1; }
[ -f "$B/subset.mol2.gz" ] || { echo "no $B/subset.mol2.gz: run 'scripts/bench_enrichment.sh prepare' where obabel is"; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
LABELS=${LABELS:-$B/labels.csv}
[ -n "${VSG_LIBRARY:-}" ] && LABELS=${LABELS_FULL:-$B/labels_full.csv}
{ echo "# bench_enrichment $(date -u +%FT%TZ) on $(hostname): $(nproc) cores, JOBS=$JOBS"
  echo "# vsgrid: $VSGRID ($(cd "$ROOT" && git rev-parse --short HEAD 2> /dev/null))"
  command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "# box: center $CX,$CY,$CZ size $SX,$SY,$SZ"; } | tee "$OUT/env.txt"

# (b) the Vina map set of the box, with vsgrid (its time is reported, not in the screen's).
t0=$(now)
mkdir -p "$OUT/maps"
"$VSGRID" maps "$REC" --scoring vina --box "$CX,$CY,$CZ,$SX,$SY,$SZ" -o "$OUT/maps/inha" \
    > "$OUT/maps.log" 2>&1 || { cat "$OUT/maps.log"; echo "vsgrid maps failed"; exit 1; }
MAPS_S=$(secs "$t0" "$(now)")
tail -1 "$OUT/maps.log"

rows=()   # Markdown rows
row() { # program settings csv wall
    local m n
    "$PY" "$ROOT/scripts/enrichment.py" "$3" "$LABELS" --label "$1" --json "$3.json" | tee "$3.metrics"
    n=$(( $(wc -l < "$3") - 1 ))
    m=$("$PY" -c 'import json,sys; m=json.load(open(sys.argv[1])); n=int(sys.argv[2]); w=float(sys.argv[3])
print("%d records, %d molecules (%d act.) | %.1f | %.3g | %.3f | %.2f | %.1f" % (n, m["molecules"], m["actives"], w, n / w if w > 0 else 0, m["auc"], m["ef1"], m["adjusted_logauc"]))' \
        "$3.json" "$n" "$4")
    rows+=("| $1 | $2 | $m |")
}

# (c) vina over the subset's PDBQT files, one process per ligand, JOBS at a time.
if [ "${SKIP_VINA:-0}" != 1 ]; then
    "$VINA" --version > "$OUT/vina_version.txt" 2>&1 || { cat "$OUT/vina_version.txt"; echo "vina_bundle/vina does not run"; exit 1; }
    # Resumable: a ligand with a result in $OUT/vina/out is not docked again (VINA_FRESH=1 starts
    # over); VINA_DEADLINE_S=S starts no ligand after S seconds of this run, so that a run fits a
    # time limit; run again to finish. The wall time reported is the sum over the runs.
    [ "${VINA_FRESH:-0}" = 1 ] && rm -rf "$OUT/vina"
    mkdir -p "$OUT/vina/lig" "$OUT/vina/out" "$OUT/vina/log"
    tar -xzf "$B/ligands_pdbqt.tar.gz" -C "$OUT/vina/lig" || exit 1
    (cd "$OUT/vina/lig" && find . -name "*.pdbqt" | sed "s|^\./||") | sort |
        head -n "${VINA_LIMIT:-1000000}" > "$OUT/vina/all.txt"
    while read -r f; do
        grep -q '^REMARK VINA RESULT:' "$OUT/vina/out/$f" 2> /dev/null || echo "$f"
    done < "$OUT/vina/all.txt" > "$OUT/vina/todo.txt"
    VINA_T0=$(now)
    export VINA OUT REC CX CY CZ SX SY SZ VINA_EXH VINA_T0
    export VINA_DEADLINE_S=${VINA_DEADLINE_S:-}
    dock1() { # one ligand file name: <id>_<name>.pdbqt; prints id,name,score,status,seconds
        local f=$1 b=${1%.pdbqt} t0 t1 s st
        t0=$(date +%s.%N)
        if [ -n "$VINA_DEADLINE_S" ] && awk -v a="$VINA_T0" -v b="$t0" -v d="$VINA_DEADLINE_S" \
            'BEGIN { exit !(b - a > d) }'; then
            return 0
        fi
        "$VINA" --receptor "$REC" --ligand "$OUT/vina/lig/$f" --center_x "$CX" --center_y "$CY" \
            --center_z "$CZ" --size_x "$SX" --size_y "$SY" --size_z "$SZ" --cpu 1 \
            --exhaustiveness "$VINA_EXH" --seed 1 --num_modes 1 --out "$OUT/vina/out/$f" \
            > "$OUT/vina/log/$b.log" 2>&1
        st=$?; t1=$(date +%s.%N)
        s=$(awk '/^REMARK VINA RESULT:/ { print $4; exit }' "$OUT/vina/out/$f" 2> /dev/null)
        if [ "$st" = 0 ] && [ -n "$s" ]; then st=ok; else st="vina_exit_$st"; s=; fi
        echo "${b%%_*},${b#*_},$s,$st,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
    }
    export -f dock1
    echo "vina 1.2.3: $(wc -l < "$OUT/vina/all.txt") ligands, $(wc -l < "$OUT/vina/todo.txt") to dock," \
         "exhaustiveness $VINA_EXH, --cpu 1, $JOBS at a time${VINA_DEADLINE_S:+, none started after $VINA_DEADLINE_S s}"
    # shellcheck disable=SC2016  # $1 expands in the child bash
    xargs -P "$JOBS" -I{} bash -c 'dock1 "$1"' _ {} < "$OUT/vina/todo.txt" >> "$OUT/vina/rows.csv"
    secs "$VINA_T0" "$(now)" >> "$OUT/vina/wall.txt"; echo >> "$OUT/vina/wall.txt"
    VINA_S=$(awk '{ s += $1 } END { printf "%.1f", s }' "$OUT/vina/wall.txt")
    # the last row per id (a retried failure replaces its old row), only ligands of all.txt
    { echo "id,name,score_kcal_mol,status,seconds"
      awk -F, 'NR == FNR { sub(/_.*/, ""); want[$0] = 1; next } ($1 in want) { last[$1] = $0 }
               END { for (k in last) print last[k] }' "$OUT/vina/all.txt" "$OUT/vina/rows.csv" | sort; } > "$OUT/vina.csv"
    nall=$(wc -l < "$OUT/vina/all.txt"); nok=$(grep -c ',ok,' "$OUT/vina.csv")
    nrow=$(($(wc -l < "$OUT/vina.csv") - 1))
    echo "vina: $VINA_S s wall over $(wc -l < "$OUT/vina/wall.txt") run(s); $nok ok, $((nrow - nok)) failed, $((nall - nrow)) not yet docked"
    VPART=; [ "$nrow" -lt "$nall" ] && VPART="PARTIAL, $nrow of $nall docked (run again to resume); "
    row "AutoDock Vina 1.2.3" "${VPART}exh $VINA_EXH, --cpu 1 x $JOBS processes, own maps" "$OUT/vina.csv" "$VINA_S"
fi

# (d) vsgrid: the whole library in one process on the map set.
if [ -n "${VSG_LIBRARY:-}" ]; then
    # shellcheck disable=SC2206
    LIB=($VSG_LIBRARY)
else
    LIB=("$B/subset.mol2.gz")
    if [ -n "${VSG_LIMIT:-}" ]; then
        zcat "$B/subset.mol2.gz" | awk -v n="$VSG_LIMIT" '/^@<TRIPOS>MOLECULE/ { k++ } k <= n' > "$OUT/vsg_limit.mol2"
        LIB=("$OUT/vsg_limit.mol2")
    fi
fi
# shellcheck disable=SC2086
echo "vsgrid screen --placement flexible ${VSG_ARGS:-}: ${LIB[*]}"
t0=$(now)
# shellcheck disable=SC2086
"$VSGRID" screen "$OUT/maps/inha" "${LIB[@]}" --scoring vina --placement flexible ${VSG_ARGS:-} \
    -o "$OUT/vsg.csv" --json "$OUT/vsg.json" > "$OUT/vsg.log" 2>&1
rc=$?
VSG_S=$(secs "$t0" "$(now)")
tail -3 "$OUT/vsg.log"
if [ "$rc" = 0 ]; then
    row "vsgrid $(cd "$ROOT" && git rev-parse --short HEAD 2> /dev/null)" \
        "flexible ${VSG_ARGS:-(defaults)}; maps +${MAPS_S} s" "$OUT/vsg.csv" "$VSG_S"
else
    echo "vsgrid screen failed (exit $rc): $OUT/vsg.log"
fi

# (e) the table.
{ echo
  echo "DUD-E INHA, box center $CX,$CY,$CZ size $SX,$SY,$SZ; $(nproc) cores$(command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed 's/^/, /')"
  echo
  echo "| program | settings | molecules | wall s | records/s | AUC | EF1% | adj. logAUC % |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"; } | tee "$OUT/table.md"
