// Print the EXPORTED_FUNCTIONS list for emcc: every snug_* function declared in the given headers (the public header;
// the threaded module adds wasm/task_pool.h), less the names after --omit "a b" (what the plain and threaded modules
// leave to the tools module: Makefile TOOLS_ONLY). A name to omit that no header declares is an error, so a rename
// cannot quietly put a function back into the module.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const at = args.indexOf('--omit');
const omit = at < 0 ? [] : args.splice(at, 2)[1].split(/\s+/).filter(Boolean);
const names = new Set();
for (const file of args) {
  const header = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of header.matchAll(/\b(snug_[a-z0-9_]+)\s*\(/g)) names.add(m[1]);
}
const unknown = omit.filter((n) => !names.has(n));
if (unknown.length) {
  console.error(`exports: --omit names ${unknown.join(', ')}, which ${args.join(' and ')} do not declare`);
  process.exit(1);
}
for (const n of omit) names.delete(n);
const exported = [...names].sort().map((n) => `_${n}`).concat(['_malloc', '_free']);
process.stdout.write(JSON.stringify(exported) + '\n');
