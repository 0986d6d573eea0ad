#!/bin/sh
# test-slurm.sh - README's Slurm job array, run on a real one-node Slurm
# cluster: the script of README's "Shards" section (taken from README.md) is
# submitted with sbatch, each task plays its shard with --shard auto, and
# the shards merged must hold the games of the same tournament run in one
# piece, in whole colour-exchanged pairs, with the same moves and results,
# and `twixt-arena standings` of them the same standings (games a loaded
# machine made a bot lose by timeout in one run only are counted apart).
# Then one task's file loses its last games, the task is requeued as README
# says, and it resumes its shard.
#
#   test-slurm.sh TWIXT_ARENA TINY_BOT SOURCE_ROOT
#
# The cluster is started here and stopped at the end, all of it in a
# temporary directory: munged with its own key and socket, slurmctld and
# slurmd with their own slurm.conf (SLURM_CONF), state and free ports, so
# nothing of the machine's is used or touched. It needs root (slurmd starts
# jobs) and Debian's slurm-wlm and munge (scripts/setup --tests installs
# them where it can); without them it exits 77 (skipped), saying why.
set -eu
arena=$(realpath "$1")
tiny=$(realpath "$2")
source_root=$(realpath "$3")

skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs (run the tests as root)"
for program in munged munge slurmctld slurmd sbatch squeue scontrol; do
    command -v "$program" >/dev/null 2>&1 ||
        skip "$program is not installed (apt-get install slurm-wlm munge; scripts/setup --tests does)"
done

dir=$(mktemp -d /tmp/tx-slurm-XXXXXX)
chmod 755 "$dir" # munged wants every directory above its socket searchable by all
pids=""
cleanup() {
    # Only what this script started, by its process id.
    for pid in $pids; do kill "$pid" 2>/dev/null || true; done
    for pid in $pids; do
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$dir"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for log in "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/munged.log "$dir"/work/slurm-*.out; do
        [ -f "$log" ] && { echo "== $log"; tail -n 30 "$log"; }
    done
    exit 1
}

# ---- the cluster ----
mkdir -m 700 "$dir/munge" "$dir/state" "$dir/spool"
mkdir -m 755 "$dir/run"
head -c 1024 /dev/urandom >"$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged --foreground --force --socket="$dir/run/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/munged.log" \
    --seed-file="$dir/munge/munged.seed" >>"$dir/munged.log" 2>&1 &
pids="$pids $!"
i=0
until munge -S "$dir/run/munge.socket" -n >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -lt 100 ] || fail "munged did not start"
    sleep 0.1
done

ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
node=$(hostname -s)
cpus=$(nproc)
cat >"$dir/slurm.conf" <<EOF
ClusterName=txtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
AuthType=auth/munge
AuthInfo=socket=$dir/run/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >>"$dir/slurmctld.log" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" >>"$dir/slurmd.log" 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    [ $i -lt 300 ] || fail "the node did not come up: $(sinfo 2>&1)"
    sleep 0.1
done

# ---- README's job array ----
work="$dir/work"
mkdir "$work" "$work/results"
cd "$work"
for bot in bot-a bot-b; do
    printf '#!/bin/sh\nexec %s "$@"\n' "$tiny" >"$bot"
    chmod +x "$bot"
done
# The script: the sh block of README.md that starts with #SBATCH --array.
python3 - "$source_root/README.md" >tournament.sh <<'PY'
import re, sys
blocks = re.findall(r"```sh\n(#!/bin/sh\n#SBATCH --array.*?)```", open(sys.argv[1]).read(), re.S)
assert len(blocks) == 1, f"{len(blocks)} Slurm job arrays in README.md"
print(blocks[0], end="")
PY
tasks=$(sed -n 's/^#SBATCH --array=1-\([0-9]*\)$/\1/p' tournament.sh)
[ -n "$tasks" ] || fail "README's job array is not --array=1-N"
# A node with fewer CPUs than the script asks for a task takes them all.
per_task=$(sed -n 's/^#SBATCH --cpus-per-task=\([0-9]*\)$/\1/p' tournament.sh)
extra=""
[ "${per_task:-1}" -le "$cpus" ] || extra="--cpus-per-task=$cpus"
export PATH="$(dirname "$arena"):$PATH"
started=$(date +%s)
echo "the cluster is up; submitting README's job array ($tasks tasks)"
job=$(sbatch --parsable $extra tournament.sh) || fail "sbatch refused the script"
wait_job() {
    i=0
    while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
        i=$((i + 1))
        [ $i -lt 2400 ] || fail "job $1 did not end in 240 s: $(squeue -j "$1")"
        sleep 0.1
    done
}
wait_job "$job"
for k in $(seq 1 "$tasks"); do
    state=$(scontrol show job "${job}_$k" 2>/dev/null | sed -n 's/.*JobState=\([A-Z]*\).*/\1/p' | head -1)
    [ "$state" = COMPLETED ] || fail "task $k: $state"
    [ -s "results/shard$k.jsonl" ] || fail "task $k wrote no results/shard$k.jsonl"
done

echo "job $job: $tasks tasks done in $(($(date +%s) - started)) s"

# ---- the same tournament in one piece ----
cmd=$(sed -n '/^twixt-arena tournament/,/[^\\]$/p' tournament.sh | sed 's/\\$//' | tr '\n' ' ')
whole_cmd=$(printf '%s' "$cmd" | sed 's/--concurrency "$SLURM_CPUS_PER_TASK"/--concurrency 2/;
    s/--shard auto//; s|-o "results/shard$SLURM_ARRAY_TASK_ID.jsonl"|-o whole.jsonl|')
case $whole_cmd in *SLURM*) fail "cannot make the unsharded command of: $cmd" ;; esac
sh -c "$whole_cmd" >/dev/null 2>&1 || fail "the unsharded run: $whole_cmd"

# The shards hold exactly the games of the whole run (each pairing's k),
# in whole colour-exchanged pairs, and the same games: the same moves and
# result, for every game in which no bot timed out (a loaded machine can
# make a bot late in one run and not in the other; such games are counted
# and said). With no timeout at all, the merged standings equal the whole
# run's.
compare() {
    "$arena" standings --json whole.jsonl >whole.json
    "$arena" standings --json results/shard*.jsonl >merged.json
    python3 - whole.json merged.json whole.jsonl results/shard*.jsonl <<'PY'
import json, sys
def games(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        key = (r["pairing"]["key"], r["pairing"]["k"])
        assert key not in out, f"{path}: game {key} twice"
        out[key] = r
    return out
whole = games(sys.argv[3])
shards = {}
for path in sys.argv[4:]:
    mine = games(path)
    ks = {}
    for key, k in mine:
        ks.setdefault(key, set()).add(k)
    for k in ks.values():
        assert k == {x for j in {(x + 1) // 2 for x in k} for x in (2 * j - 1, 2 * j)}, \
            f"{path}: not whole pairs: {sorted(k)}"
    assert not set(mine) & set(shards), f"{path}: a game of another shard"
    shards.update(mine)
assert set(shards) == set(whole), \
    f"{len(set(whole) - set(shards))} games missing, {len(set(shards) - set(whole))} extra"
late = 0
for key, r in whole.items():
    m = shards[key]
    if "timeout" in (r["result"]["reason"], m["result"]["reason"]):
        late += 1
        continue
    same = [x["move"] for x in r["moves"]] == [x["move"] for x in m["moves"]] and \
        r["result"]["winner"] == m["result"]["winner"]
    assert same, f"game {key} differs between the whole run and its shard"
def load(path):
    # Times per move differ between any two runs, bots tied on points may
    # be ranked in either order, and "versus" follows the bot seen last.
    data = json.load(open(path))
    data.pop("versus", None)
    for bot in data["bots"]:
        for key in ("avg_ms", "max_ms", "first_turn_max_ms", "rank"):
            bot.pop(key, None)
    data["bots"].sort(key=lambda bot: bot["name"])
    return json.loads(json.dumps(data, sort_keys=True))
if late == 0 and load(sys.argv[1]) != load(sys.argv[2]):
    print("whole run:", json.dumps(load(sys.argv[1]), indent=1))
    print("merged shards:", json.dumps(load(sys.argv[2]), indent=1))
    sys.exit(1)
print(f"the {len(sys.argv) - 4} shards merged hold the {len(whole)} games of the whole run, the "
      f"same games" + (f" ({late} ended by a timeout in one run: the machine is busy)" if late
                       else ", and the same standings"))
PY
}
compare || fail "merged shards differ from the whole run"
echo "the unsharded run and the comparison done at $(($(date +%s) - started)) s"

# ---- a task whose file lost games, requeued, resumes ----
lines=$(wc -l <results/shard3.jsonl)
head -n $((lines - 5)) results/shard3.jsonl >cut.jsonl && mv cut.jsonl results/shard3.jsonl
scontrol requeue "${job}_3" || fail "scontrol requeue ${job}_3"
# Slurm holds a requeued job back two minutes before it may start again
# (its BeginTime): a test need not wait for that.
scontrol update JobId="${job}_3" StartTime=now || fail "scontrol update ${job}_3 StartTime=now"
wait_job "${job}_3"
[ "$(wc -l <results/shard3.jsonl)" -eq "$lines" ] ||
    fail "the requeued task has $(wc -l <results/shard3.jsonl) games, not $lines"
compare || fail "after the requeue, merged shards differ from the whole run"
echo "requeued task 3 resumed its shard at $(($(date +%s) - started)) s"
echo "README's Slurm job array ran on a one-node cluster and resumed a requeued task"
