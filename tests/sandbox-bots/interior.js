// interior.js - a Twixt-PP bot for node, for the sandbox tests: the first
// empty hole of the interior (B2..K11, legal for both players), then of its
// own border lines. Never swaps.
const lines = [];
let me = 0;
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  lines.push(line.trim());
  turn();
});

function turn() {
  // A whole turn: the last peg, then four counted lists.
  let at = 1;
  const taken = new Set();
  for (let list = 0; list < 4; list++) {
    if (at >= lines.length) return;
    const n = parseInt(lines[at], 10);
    if (at + n >= lines.length) return;
    if (list === 0 || list === 2) for (let i = 1; i <= n; i++) taken.add(lines[at + i]);
    at += n + 1;
  }
  if (!me) me = lines[0] === 'FIRST' ? 1 : 2;
  lines.splice(0, at);
  const cols = me === 1 ? 'BCDEFGHIJK' : 'BCDEFGHIJKAL';
  const rows = me === 1 ? [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 12] : [2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  for (const c of cols) {
    for (const r of rows) {
      const hole = c + r;
      if (!taken.has(hole)) {
        process.stdout.write(hole + '\n');
        return;
      }
    }
  }
}
