// The plain module's gzip size (level 9, as the bench's size rows) against its budget in bytes; exits 1 above it.
//   node tests/tools/wasm_size.mjs <module.wasm> <budget bytes>
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const [file, budget] = [process.argv[2], Number(process.argv[3])];
const size = gzipSync(readFileSync(file), { level: 9 }).length;
const verdict = size <= budget ? 'within' : 'OVER';
console.log(`size: ${file} ${size.toLocaleString('en-US')} bytes gzip -9, ${verdict} its budget of ${budget.toLocaleString('en-US')} (${(budget - size).toLocaleString('en-US')} left)`);
process.exit(size <= budget ? 0 : 1);
