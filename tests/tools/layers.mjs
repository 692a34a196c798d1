// The core's layers include only downward: a file in core/src/<layer>/ may include "snug.h", system headers and
// headers of its own layer or of the layers below it. research/ holds variants kept for comparison: it may
// include the layers it builds on, and no product layer includes it. Exits 1 listing every include that breaks
// the rule, and every header whose include guard does not span the whole file (make test-layers; part of make test).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ORDER = ['base', 'geom', 'bvh', 'query', 'ccd', 'scene', 'place'];
const RESEARCH = { name: 'research', below: ['base', 'geom', 'bvh'] };
const root = new URL('../../core/src/', import.meta.url).pathname;

function allowed(from, to) {
  if (from === to) return true;
  if (from === RESEARCH.name) return RESEARCH.below.includes(to);
  if (to === RESEARCH.name) return false;
  const a = ORDER.indexOf(from), b = ORDER.indexOf(to);
  return a >= 0 && b >= 0 && b < a;
}

const problems = [];

// A header's include guard spans the whole file: its first directive opens the guard, and the #endif closing it
// is the last line (an #endif in the middle leaves the rest unguarded).
function guardProblem(file, lines) {
  const directives = lines.map((l, i) => [/^\s*#\s*(\w+)/.exec(l)?.[1], i]).filter(([d]) => d);
  const text = lines.map((l) => l.trim()).filter(Boolean);
  if (directives[0]?.[0] !== 'ifndef' || directives[1]?.[0] !== 'define') {
    return problems.push(`${file}: does not start with an #ifndef / #define include guard`);
  }
  let depth = 0;
  for (const [d, i] of directives) {
    if (d === 'if' || d === 'ifdef' || d === 'ifndef') depth++;
    if (d === 'endif' && --depth === 0 && lines.slice(i + 1).some((l) => l.trim())) {
      return problems.push(`${file}:${i + 1}: the include guard closes before the end of the file`);
    }
  }
  if (!/^#\s*endif/.test(text[text.length - 1])) problems.push(`${file}: does not end with the guard's #endif`);
}
let files = 0;
for (const layer of readdirSync(root)) {
  if (!ORDER.includes(layer) && layer !== RESEARCH.name) {
    problems.push(`core/src/${layer}: not a layer (${[...ORDER, RESEARCH.name].join(', ')})`);
    continue;
  }
  for (const name of readdirSync(join(root, layer))) {
    if (!/\.[ch]$/.test(name)) continue;
    files++;
    const lines = readFileSync(join(root, layer, name), 'utf8').split('\n');
    if (name.endsWith('.h')) guardProblem(`core/src/${layer}/${name}`, lines);
    lines.forEach((line, i) => {
      const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
      if (!m || m[1] === 'snug.h') return;
      const where = `core/src/${layer}/${name}:${i + 1}`;
      const slash = m[1].indexOf('/');
      if (slash < 0) return problems.push(`${where}: "${m[1]}" names no layer (write "<layer>/${m[1]}")`);
      const to = m[1].slice(0, slash);
      if (!allowed(layer, to)) problems.push(`${where}: ${layer} includes "${m[1]}" (layer ${to})`);
    });
  }
}
if (problems.length) {
  console.error(`layers: ${problems.length} problem(s) (layer order ${ORDER.join(' -> ')}, whole-file include guards):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`layers: ${files} files include only their own layer and the layers below (${ORDER.join(' -> ')}; research beside bvh); every header is guarded whole`);
