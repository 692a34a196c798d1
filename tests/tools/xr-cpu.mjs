// The XR placement work's CPU time, told apart from the time other threads took the CPU from it (make xr-cpu).
// Runs the XR carry test (tests/browser/xr.test.mjs, "Insert a chair ...") under `perf record` of the kernel's context
// switches while the page marks each piece of its placement work in a browser trace (web/xr/hands.js, markWork). For
// every headset frame with work it adds up the wall time of the pieces and the time the page's main thread was on a
// CPU inside them. On a 2-core machine SwiftShader draws the headset's frames on the CPU beside the page, so a frame's
// wall time can exceed the work done in it; the test itself reports wall time.
// Usage: node tests/tools/xr-cpu.mjs [runs]. Needs perf (Debian: linux-perf) and the right to trace the whole system
// (root, or kernel.perf_event_paranoid = -1). Chrome's trace clock and perf's -k CLOCK_MONOTONIC are the same clock.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORK_MEASURE } from '../../web/xr/hands.js';

const runs = Number(process.argv[2] ?? 3);
const quantile = (sorted, f) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
const ms = (us) => (us / 1000).toFixed(2);

function run(dir) {
  const trace = path.join(dir, 'trace.json'), data = path.join(dir, 'sched.data');
  const test = spawnSync('perf', ['record', '-q', '-k', 'CLOCK_MONOTONIC', '-m', '8192', '-e', 'sched:sched_switch', '--filter', 'prev_comm == "chromium" || next_comm == "chromium"', '-a',
    '-o', data, '--', process.execPath, '--test', '--test-name-pattern=Insert a chair', 'tests/browser/xr.test.mjs'],
  { env: { ...process.env, SNUG_XR_TRACE: trace }, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (test.error) throw new Error(`perf: ${test.error.message} (Debian package linux-perf)`);
  if (test.status !== 0 || !fs.existsSync(trace)) {
    throw new Error(`the XR test under perf failed (status ${test.status}):\n${(test.stderr + test.stdout).slice(-3000)}`);
  }
  const reported = /# xr placement per frame.*/.exec(test.stdout)?.[0] ?? '(the test reported no frames)';
  const script = spawnSync('perf', ['script', '-i', data, '-F', 'pid,tid,time,cpu,trace'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (script.status !== 0) throw new Error(`perf script: ${script.stderr}`);
  return { reported, ...frames(JSON.parse(fs.readFileSync(trace, 'utf8')), script.stdout) };
}

// The work's pieces from the trace (user-timing measures are async begin/end pairs), grouped by frame.
function pieces(trace) {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const open = new Map(), out = [];
  for (const e of events) {
    if (!e.name?.startsWith(`${WORK_MEASURE} `)) continue;
    const key = `${e.name}/${e.id2?.local ?? e.id}`;
    if (e.ph === 'b') open.set(key, e);
    else if (e.ph === 'e' && open.has(key)) {
      const b = open.get(key);
      open.delete(key);
      out.push({ frame: Number(e.name.slice(WORK_MEASURE.length + 1)), from: b.ts, to: e.ts, tid: b.tid });
    }
  }
  return out;
}

// Per frame: wall time of its pieces, the main thread's time on a CPU inside them, and who took the CPU from it there.
function frames(trace, sched) {
  const work = pieces(trace);
  if (!work.length) throw new Error('the trace holds no placement work');
  const tid = work[0].tid;
  const switches = [];
  for (const line of sched.split('\n')) {
    const m = /^\s*\d+\/\d+\s+\[\d+\]\s+([\d.]+): prev_comm=(.*?) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*?) next_pid=(\d+)/.exec(line);
    if (m) switches.push({ t: Math.round(Number(m[1]) * 1e6), prev: Number(m[3]), state: m[4], next: Number(m[6]), nextComm: m[5] });
  }
  // The main thread's intervals on a CPU. A switch away from it with no switch to it before (an event perf lost) counts
  // as on a CPU since it last left, so that lost events can only make the work look longer.
  const on = [];
  let since = -Infinity, left = -Infinity, unmatched = 0;
  for (const s of switches) {
    if (s.next === tid) since = s.t;
    else if (s.prev === tid) {
      if (since === null) unmatched++;
      on.push([since ?? left, s.t]);
      since = null, left = s.t;
    }
  }
  if (since !== null) on.push([since, Infinity]);
  const byFrame = new Map();
  for (const p of work) {
    const f = byFrame.get(p.frame) ?? { at: byFrame.size + 1, wall: 0, cpu: 0, takenBy: new Map() };
    f.wall += p.to - p.from;
    for (const [a, b] of on) f.cpu += Math.max(0, Math.min(b, p.to) - Math.max(a, p.from));
    for (const s of switches) {
      if (s.prev === tid && s.t > p.from && s.t < p.to) f.takenBy.set(s.nextComm, (f.takenBy.get(s.nextComm) ?? 0) + 1);
    }
    byFrame.set(p.frame, f);
  }
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const gcs = events.filter((e) => e.ph === 'X' && e.tid === tid && /^(MinorGC|MajorGC)$/.test(e.name));
  for (const p of work) {
    const f = byFrame.get(p.frame);
    for (const g of gcs) if (g.ts < p.to && g.ts + g.dur > p.from) f.gc = (f.gc ?? 0) + Math.min(g.ts + g.dur, p.to) - Math.max(g.ts, p.from), f.gcName = g.name;
  }
  return { tid, unmatched, frames: [...byFrame.values()] };
}

const all = [];
for (let k = 1; k <= runs; k++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snug-xr-cpu-'));
  try {
    const r = run(dir);
    const wall = r.frames.map((f) => f.wall).sort((a, b) => a - b), cpu = r.frames.map((f) => f.cpu).sort((a, b) => a - b);
    console.log(`run ${k}: ${r.reported.slice(2)}`);
    console.log(`  ${r.frames.length} frames with work (main thread ${r.tid}): wall median ${ms(quantile(wall, 0.5))} ms, ` +
      `p95 ${ms(quantile(wall, 0.95))} ms, max ${ms(wall.at(-1))} ms; on a CPU median ${ms(quantile(cpu, 0.5))} ms, ` +
      `p95 ${ms(quantile(cpu, 0.95))} ms, max ${ms(cpu.at(-1))} ms${r.unmatched ? ` (${r.unmatched} switches away without one to it: events lost, counted as on a CPU)` : ''}`);
    for (const f of r.frames.filter((f) => f.wall > 1000 || f.cpu > 800)) {
      const gc = f.gc ? `, ${ms(f.gc)} ms of it in V8's ${f.gcName}` : '';
      const away = [...f.takenBy].map(([c, n]) => `${c} ${n}x`).join(', ') || 'nothing';
      console.log(`  frame ${f.at} with work: ${ms(f.wall)} ms, ${ms(f.cpu)} ms on a CPU${gc}; switched out for ${away}`);
    }
    all.push(...r.frames);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const wall = all.map((f) => f.wall).sort((a, b) => a - b), cpu = all.map((f) => f.cpu).sort((a, b) => a - b);
console.log(`all ${runs} runs, ${all.length} frames with work: wall p95 ${ms(quantile(wall, 0.95))} ms, max ${ms(wall.at(-1))} ms, ` +
  `${wall.filter((w) => w > 1000).length} above 1 ms; on a CPU p95 ${ms(quantile(cpu, 0.95))} ms, max ${ms(cpu.at(-1))} ms, ` +
  `${cpu.filter((c) => c > 1000).length} above 1 ms`);
