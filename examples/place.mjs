// snug from JavaScript (node or a bundler): drag a box towards another one and stop at contact, then slide.
// Run: make examples (or node examples/place.mjs after make package).
import { Snug, pose } from 'snug';

const snug = await Snug.create();
const s = 0.5;
const positions = new Float32Array([-s, -s, -s, s, -s, -s, s, s, -s, -s, s, -s, -s, -s, s, s, -s, s, s, s, s, -s, s, s]);
const indices = new Uint32Array([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
  3, 6, 2, 3, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3]);
const box = snug.createMesh({ positions, indices });

const wall = pose([0, 0, 0, 1], [3, 0, 0]);
const start = pose([0, 0, 0, 1], [0, 0, 0]);
const r = snug.sweep(box, start, [4, 1, 0], box, wall);   // diagonal drag into the wall
console.log(`stopped at ${r.t.toFixed(3)} of the drag, normal ${Array.from(r.normal, (v) => v.toFixed(2))}`);

// Slide: keep the part of the remaining drag that runs along the contact plane.
const rest = [4 * (1 - r.t), 1 * (1 - r.t), 0];
const n = r.normal, dot = rest[0] * n[0] + rest[1] * n[1] + rest[2] * n[2];
const slide = [rest[0] - dot * n[0], rest[1] - dot * n[1], rest[2] - dot * n[2]];
const atContact = snug.motionPoseAt({ start, end: pose([0, 0, 0, 1], [4, 1, 0]) }, r.safeT);
const s2 = snug.sweep(box, atContact, slide, box, wall);
console.log(`slides ${(s2.t * Math.hypot(...slide)).toFixed(3)} units along the wall, blocked: ${s2.hit}`);

try {
  snug.createMesh({ positions: [0, 0, NaN, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] });
} catch (e) {
  console.log(`bad input: ${e.status}: ${e.message}`);
}
box.dispose();
snug.dispose();
