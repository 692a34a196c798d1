// snug's core from node, without three.js: the Stanford bunny and the Utah teapot from their npm packages, rays
// (single, all hits, a batch), overlap, distance, closest point, a sweep, bad input, and a scene with the collision
// step. Run: make examples (or node examples/core.mjs after make package).
import { createRequire } from 'node:module';
import { Snug, SnugError, pose } from 'snug';

const require = createRequire(import.meta.url);
// The packages give [[x, y, z], ...] points and [[a, b, c], ...] triangles; snug takes flat typed arrays. The teapot
// is scaled to stand about as tall as the bunny (both y up, the bunny's base at y = 0, the teapot centred).
function load(name, scale = 1, lift = 0) {
  const { positions, cells } = require(name);
  return {
    positions: Float32Array.from(positions.flatMap(([x, y, z]) => [x * scale, y * scale + lift, z * scale])),
    indices: Uint32Array.from(cells.flat()),
    label: name,
  };
}

const snug = await Snug.create();
const bunny = snug.createMesh(load('bunny'));
const teapot = snug.createMesh(load('teapot', 0.4, 0.4 * 7.875));
for (const m of [bunny, teapot]) {
  const i = m.info();
  console.log(`${m.label}: ${i.triangleCount} triangles, ${i.closed ? 'closed' : `open (${i.boundaryEdgeCount} boundary edges)`}, ` +
    `hierarchy of ${i.nodeCount} nodes, size ${i.scale.toFixed(2)}, tolerance ${i.tolerance.toExponential(1)}`);
}
const checks = [];
const check = (ok, what) => { if (!ok) checks.push(what); };

// Rays. A pose is [qx, qy, qz, qw, px, py, pz]; null is the identity.
const down = snug.raycast(bunny, null, [0, 20, 0], [0, -1, 0]);
console.log(`ray down onto the bunny: t ${down.t.toFixed(3)} at (${Array.from(down.point, (v) => v.toFixed(2))}), ` +
  `normal (${Array.from(down.normal, (v) => v.toFixed(2))})`);
check(down && down.normal[1] > 0, 'a ray from above hits the bunny on an upward face');
const through = snug.raycastAll(teapot, null, [-20, 3, 0], [1, 0, 0]);
console.log(`a ray through the teapot along x crosses its surface ${through.count} times`);
check(through.count >= 2, 'a ray through the teapot crosses it at least twice');
// 100 x 100 rays straight down over the bunny's footprint, in one call.
const n = 100, origins = new Float32Array(3 * n * n), dirs = new Float32Array(3 * n * n);
for (let i = 0; i < n * n; i++) {
  origins.set([-5 + (10 * (i % n)) / n, 20, -4 + (8 * Math.floor(i / n)) / n], 3 * i);
  dirs.set([0, -1, 0], 3 * i);
}
const t0 = performance.now();
const hits = snug.raycastBatch(bunny, null, origins, dirs);
const ms = performance.now() - t0;
let hitCount = 0;
for (let i = 0; i < n * n; i++) if (hits.hit(i)) hitCount++;
console.log(`batch of ${n * n} rays: ${hitCount} hit the bunny (${ms.toFixed(2)} ms)`);
check(hitCount > 0 && hitCount < n * n, 'the batch hits the bunny with some rays and misses with others');

// Overlap and distance: the teapot beside the bunny, then pushed into it.
const beside = pose([0, 0, 0, 1], [12, 0, 0]), into = pose([0, 0, 0, 1], [6, 0, 0]);
const d = snug.distance(bunny, null, teapot, beside);
console.log(`teapot beside the bunny: overlap ${snug.overlap(bunny, null, teapot, beside)}, distance ${d.distance.toFixed(3)} ` +
  `between (${Array.from(d.pointA, (v) => v.toFixed(2))}) and (${Array.from(d.pointB, (v) => v.toFixed(2))})`);
check(d.distance > 0 && !snug.overlap(bunny, null, teapot, beside), 'apart: no overlap, a positive distance');
const overlapping = snug.overlap(bunny, null, teapot, into);
console.log(`teapot pushed into the bunny: overlap ${overlapping} (bunny triangle ${snug.pair[0]}, teapot triangle ${snug.pair[1]})`);
check(overlapping, 'pushed in: overlap');
const near = snug.closestPoint(bunny, null, [0, 5, 10]);
console.log(`closest point of the bunny to (0, 5, 10): (${Array.from(near.point, (v) => v.toFixed(2))}), ` +
  `${near.distance.toFixed(3)} away; (0, 3, 0) is ${snug.inside(bunny, null, [0, 3, 0]) ? 'inside' : 'outside'} the bunny`);
check(snug.inside(bunny, null, [0, 3, 0]) && !snug.inside(bunny, null, [0, 5, 10]), 'inside and outside the bunny');

// A sweep: slide the teapot from beside the bunny towards it; it stops where it first touches.
const slide = snug.sweep(teapot, beside, [-10, 0, 0], bunny, null);
console.log(`teapot slid 10 units towards the bunny: stops after ${(10 * slide.t).toFixed(3)} (${slide.feature}), ` +
  `contact normal (${Array.from(slide.normal, (v) => v.toFixed(2))})`);
check(slide.hit && slide.t > 0 && slide.t < 1, 'the sweep stops on the way');

// Bad input gets a SnugError with the core's status and message, and changes nothing.
// (The teapot is open, so it has no inside.)
const badCalls = [() => snug.inside(teapot, null, [0, 3, 0]), () => snug.raycast(bunny, null, [0, NaN, 0], [0, -1, 0])];
for (const bad of badCalls) {
  try {
    bad();
    checks.push('bad input was accepted');
  } catch (e) {
    if (!(e instanceof SnugError)) throw e;
    console.log(`bad input: ${e.status}: ${e.message}`);
  }
}

// A scene: bodies are instances of meshes; the step moves bodies along motions and reports first contacts.
const scene = snug.createScene();
const still = scene.createBody({ mesh: bunny, isStatic: true });
const moving = scene.createBody({ mesh: teapot, pose: beside });
const hit = scene.raycast([30, 3, 0], [-1, 0, 0]);
console.log(`scene ray from the right hits the ${hit.body === moving ? 'teapot' : 'bunny'} first, at t ${hit.t.toFixed(3)}`);
scene.stepBegin();
scene.stepMove(moving, pose([0, 0, 0, 1], [2, 0, 0])); // target world pose: through the bunny
const [c] = scene.stepDetect({ mode: 'dynamic' });
scene.stepCommit(moving, c.hit ? c.t : 1);
const at = moving.getPose();
console.log(`step: the teapot moving to x = 2 touches the ${c.bodyB === still || c.bodyA === still ? 'bunny' : '?'} at t ` +
  `${c.t.toFixed(3)} (${c.feature}); committed there, at x = ${at[4].toFixed(3)}, ` +
  `overlap now ${snug.overlap(bunny, null, teapot, at)}`);
check(c.hit && c.t < 1 && !snug.overlap(bunny, null, teapot, at), 'the step stops the teapot at the bunny');

scene.dispose();
snug.dispose();
if (checks.length) {
  console.error(`core example: ${checks.join('; ')}`);
  process.exit(1);
}
