// Print the EXPORTED_FUNCTIONS list for emcc: every snug_* function declared in the given headers (the public header;
// the threaded module adds wasm/task_pool.h).
import { readFileSync } from 'node:fs';

const names = new Set();
for (const file of process.argv.slice(2)) {
  const header = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of header.matchAll(/\b(snug_[a-z0-9_]+)\s*\(/g)) names.add(m[1]);
}
const exported = [...names].sort().map((n) => `_${n}`).concat(['_malloc', '_free']);
process.stdout.write(JSON.stringify(exported) + '\n');
