// Continuous queries through the JS API: sweeps (translation, rotation) and time of impact, checked against
// the analytic contact of boxes and against static overlap tests just before and after the reported time.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Snug, SnugError, pose } from '../../wasm/snug.js';
import { wasmBinary, seed, scale, rng } from './support.mjs';

const snug = await Snug.create({ wasmBinary });
const msg = `seed ${seed}`;

function box(hx, hy, hz) {
  const p = [];
  for (let i = 0; i < 8; i++) p.push(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
  const idx = [0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5];
  return { positions: p, indices: idx };
}

test('sweep: boxes meet at the analytic fraction; the normal points back at the mover', () => {
  const r = rng(seed);
  // B is taller and deeper than A, so the first contact is A's leading face on B's face interior (no coplanar
  // side faces, where a grazing face may legitimately be reported).
  const a = snug.createMesh(box(0.5, 0.5, 0.5));
  const b = snug.createMesh(box(0.5, 0.7, 0.7));
  for (let i = 0; i < 30 * scale; i++) {
    const gap = 0.1 + 2 * r();
    const len = gap + 0.5 + 2 * r();
    const y = (r() - 0.5) * 0.8; // offset sideways but still overlapping in y
    const res = snug.sweep(a, pose(undefined, [0, y, 0]), [len, 0, 0], b, pose(undefined, [1 + gap, 0, 0]));
    assert.equal(res.hit, true, `case ${i} (${msg})`);
    assert.ok(Math.abs(res.t - gap / len) < 1e-4, `t ${res.t} vs ${gap / len} (${msg})`);
    assert.ok(res.safeT <= res.t);
    assert.ok(res.normal[0] < -0.99, `normal ${Array.from(res.normal)}`);
    assert.ok(Math.abs(res.point[0] - (0.5 + gap)) < 1e-3, `point ${Array.from(res.point)}`);
    const miss = snug.sweep(a, pose(undefined, [0, y, 0]), [0, 0, len], b, pose(undefined, [1 + gap, 0, 0]));
    assert.equal(miss.hit, false);
    assert.equal(miss.t, 1);
  }
  a.dispose();
  b.dispose();
});

test('sweepRotation: free just before the reported angle, overlapping just after', () => {
  const r = rng(seed + 1);
  const bar = snug.createMesh({ positions: box(1, 0.05, 0.05).positions.map((v, i) => (i % 3 === 0 ? v + 1 : v)), indices: box(1, 0.05, 0.05).indices });
  const post = snug.createMesh(box(0.1, 0.5, 0.1));
  const rot = (angle) => pose([0, Math.sin(angle / 2), 0, Math.cos(angle / 2)], [0, 0, 0]);
  let hits = 0;
  for (let i = 0; i < 20 * scale; i++) {
    const phi = 0.3 + 2 * r(); // the bar points along (cos a, 0, -sin a) after a rotation by a about +y
    const rad = 0.6 + 1.2 * r();
    const postPose = pose(undefined, [rad * Math.cos(phi), 0, -rad * Math.sin(phi)]);
    const angle = Math.PI * 0.95;
    const res = snug.sweepRotation(bar, null, [0, 0, 0], [0, 1, 0], angle, post, postPose);
    if (!res.hit) continue;
    hits++;
    const at = res.safeT * angle;
    assert.equal(snug.overlap(bar, rot(at * 0.999), post, postPose), false, `free before (${msg})`);
    assert.equal(snug.overlap(bar, rot(Math.min(angle, res.t * angle + 0.02)), post, postPose), true, `overlap after (${msg})`);
  }
  assert.ok(hits > 5, `hits ${hits}`);
  assert.throws(() => snug.sweepRotation(bar, null, [0, 0, 0], [0, 0, 0], 1, post, null), (e) => e instanceof SnugError);
  bar.dispose();
  post.dispose();
});

test('toi: motions of both meshes; static mode reports an end overlap at t = 0', () => {
  const a = snug.createMesh(box(0.5, 0.5, 0.5));
  const b = snug.createMesh(box(0.5, 0.5, 0.5));
  // Both move towards each other: gap 1 closes at t = 0.5 when each moves 1.
  const res = snug.toi(a, { start: pose(undefined, [0, 0, 0]), end: pose(undefined, [1, 0, 0]) }, b,
    { start: pose(undefined, [2, 0, 0]), end: pose(undefined, [1, 0, 0]) });
  assert.equal(res.hit, true);
  assert.ok(Math.abs(res.t - 0.5) < 1e-4, `t ${res.t}`);
  assert.notEqual(res.feature, 'none');
  const still = snug.toi(a, pose(undefined, [0, 0, 0]), b, pose(undefined, [3, 0, 0]));
  assert.equal(still.hit, false);
  const st = snug.toi(a, { start: pose(undefined, [0, 0, 0]), end: pose(undefined, [1.5, 0, 0]) }, b, pose(undefined, [2, 0, 0]), { mode: 'static' });
  assert.equal(st.hit, true);
  assert.equal(st.t, 0);
  assert.throws(() => snug.toi(a, null, b, null, { mode: 'teleport' }), (e) => e.status === 'SNUG_ERR_INVALID_ARGUMENT');
  assert.throws(() => snug.toi(a, null, b, null, { samplingStep: 0 }), (e) => e.status === 'SNUG_ERR_INVALID_ARGUMENT');
  a.dispose();
  b.dispose();
});

test('motionPoseAt: lerp of the translation, slerp of the rotation, clamped', () => {
  const r = rng(seed + 3);
  for (let i = 0; i < 20 * scale; i++) {
    const angle = (r() * 2 - 1) * 3;
    const axis = [r() - 0.5, r() - 0.5, r() - 0.5];
    const n = Math.hypot(...axis);
    const q = (a) => [...axis.map((v) => (v / n) * Math.sin(a / 2)), Math.cos(a / 2)];
    const start = pose(q(0), [0, 0, 0]), end = pose(q(angle), [2, -4, 6]);
    const t = r();
    const p = snug.motionPoseAt({ start, end }, t);
    assert.ok(Math.abs(p[4] - 2 * t) < 1e-5 && Math.abs(p[5] + 4 * t) < 1e-5 && Math.abs(p[6] - 6 * t) < 1e-5, `translation (${msg})`);
    const expected = q(angle * t);
    const dot = Math.abs(expected.reduce((acc, v, k) => acc + v * p[k], 0));
    assert.ok(dot > 1 - 1e-5, `rotation at t ${t}: |<q, q_expected>| = ${dot} (${msg})`);
    assert.deepEqual(Array.from(snug.motionPoseAt({ start, end }, 2)).slice(4), Array.from(end).slice(4), 'clamped to the end');
  }
  const still = snug.motionPoseAt(pose([0, 0, 0, 1], [1, 2, 3]), 0.7);
  assert.deepEqual(Array.from(still), [0, 0, 0, 1, 1, 2, 3]);
});
