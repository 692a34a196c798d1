// Print the EXPORTED_FUNCTIONS list for emcc: every snug_* function declared in the public header.
import { readFileSync } from 'node:fs';

const header = readFileSync(process.argv[2], 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const names = new Set();
for (const m of header.matchAll(/\b(snug_[a-z0-9_]+)\s*\(/g)) names.add(m[1]);
const exported = [...names].sort().map((n) => `_${n}`).concat(['_malloc', '_free']);
process.stdout.write(JSON.stringify(exported) + '\n');
