// Keep the exports the library defines (emnm output on stdin-file), and list the missing ones on stderr.
// Used only by the Makefile's `wasm-js` fallback while parts of snug.h are still unimplemented.
import { readFileSync } from 'node:fs';

const wanted = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const defined = new Set(readFileSync(process.argv[3], 'utf8').split('\n').filter(Boolean));
const keep = wanted.filter((n) => defined.has(n) || n === '_malloc' || n === '_free');
const missing = wanted.filter((n) => !keep.includes(n));
if (missing.length) console.error(`snug: not linked yet: ${missing.map((n) => n.slice(1)).join(' ')}`);
process.stdout.write(JSON.stringify(keep) + '\n');
