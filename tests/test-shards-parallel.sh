#!/bin/sh
# test-shards-parallel.sh - the README's GNU parallel recipe, run locally:
# a tournament split in two shards run by `parallel`, merged by
# `twixt-arena standings`, gives the same standings as the whole run
# (times per move aside, which no two runs share), and each shard holds
# whole colour-exchanged game pairs.
#
#   test-shards-parallel.sh TWIXT_ARENA TINY_BOT
#
# Exit 77 (skipped) when GNU parallel is not installed.
set -eu
arena=$1
bot=$2
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel is not installed: skipped"; exit 77; }
dir=$(mktemp -d /tmp/tx-shards-XXXXXX)
trap 'rm -rf "$dir"' EXIT

set -- "a=$bot --seed {seed}" "b=$bot --seed {seed}" "c=$bot --seed {seed}" \
    --games-per-pair 6 --openings 2 --concurrency 1

"$arena" tournament "$@" -o "$dir/whole.jsonl" >/dev/null
# -q keeps each argument one word; {} is the shard number, {seed} is left
# for twixt-arena to expand per game.
parallel -q "$arena" tournament "$@" --shard {}/2 -o "$dir/shard{}.jsonl" ::: 1 2 >/dev/null

# Each shard holds whole colour-exchanged pairs (games 2j-1 and 2j of a
# pairing), so the pentanomial counts of merged shards see every pair.
python3 - "$dir/shard1.jsonl" "$dir/shard2.jsonl" <<'PY'
import json, sys
for path in sys.argv[1:]:
    ks = {}
    for line in open(path):
        pairing = json.loads(line)["pairing"]
        ks.setdefault(pairing["key"], set()).add(pairing["k"])
    for key, k in ks.items():
        rounds = {(x + 1) // 2 for x in k}
        whole = {x for j in rounds for x in (2 * j - 1, 2 * j)}
        assert k == whole, f"{path}: pairing {key} has games {sorted(k)}, not whole pairs"
print("each shard holds whole game pairs")
PY
"$arena" standings --json "$dir/whole.jsonl" >"$dir/whole.json"
"$arena" standings --json "$dir/shard1.jsonl" "$dir/shard2.jsonl" >"$dir/merged.json"
python3 - "$dir/whole.json" "$dir/merged.json" <<'PY'
import json, sys
def load(path):
    # Times per move differ between any two runs, and bots tied on points may
    # be ranked in either order: compare everything else, sorted by name.
    data = json.load(open(path))
    # "versus" follows the bot seen last, which depends on which game of a
    # pair a run wrote first
    data.pop("versus", None)
    for bot in data["bots"]:
        for key in ("avg_ms", "max_ms", "first_turn_max_ms", "rank"):
            bot.pop(key, None)
    data["bots"].sort(key=lambda bot: bot["name"])
    return json.loads(json.dumps(data, sort_keys=True))
whole, merged = load(sys.argv[1]), load(sys.argv[2])
assert whole["games"] == 18, whole["games"]
if whole != merged:
    print("whole run:", json.dumps(whole, indent=1))
    print("merged shards:", json.dumps(merged, indent=1))
    sys.exit(1)
print("standings of the whole run and of the merged shards agree:", whole["games"], "games")
PY
