export LIB_DIR=.bench_data/c30
PART=build TESTS="test_gpu|test_dock$" bash scripts/gpu_issue28.sh 2>&1 | grep -E "tests passed|Failed|Passed|Skipped" | tail -25
echo "== dock --search vina, default devices (AUTO), then --devices gpu"
DOCK_PRESETS="vina" DOCK_DEVICES="all" PART=keep bash scripts/gpu_issue28.sh 2>&1 | tail -4
echo "== vina preset screen of data/inha/library.mol2.gz on the GPU (9 poses a record)"
B=/tmp/vsg28; $B/vsgrid maps data/inha/receptor.pdbqt --scoring vina --around data/inha/crystal_ligand.mol2 -o /tmp/im --quiet
t0=$(date +%s.%N); $B/vsgrid screen /tmp/im data/inha/library.mol2.gz --scoring vina --placement flexible --search vina --devices gpu --receptor data/inha/receptor.pdbqt --poses 9 --poses-out /tmp/vina_poses.pdbqt -o /tmp/vina_screen.csv --quiet; t1=$(date +%s.%N)
echo "$(($(wc -l < /tmp/vina_screen.csv) - 1)) rows, $(grep -c '^MODEL' /tmp/vina_poses.pdbqt) poses, $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') s; statuses: $(awk -F, 'NR > 1 { print $14 }' /tmp/vina_screen.csv | sort | uniq -c | tr '\n' ' ')"
echo "== depth against this host's vina minima (48 INHA records)"
VINA_SCORES=$LIB_DIR/vina_all.txt SEARCH="fast balanced detail" CONFIGS="balanced_s7:--search balanced --seed 7;detail_s7:--search detail --seed 7" bash scripts/gpu_depth_inha.sh 2>&1 | grep -E "within|records/s|s for" 
mkdir -p $OUT && cp /tmp/vina_screen.csv $OUT/ 2>/dev/null
