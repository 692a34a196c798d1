// The web anchors of `make bench`, each used through its documented API:
//   node tests/bench/anchors.mjs <lib> <task> [arg]
//   lib: tmb (three-mesh-bvh), rapier (@dimforge/rapier3d-compat), jolt (jolt-physics)
//   task: build <mesh> | rays <mesh> | pairs | meshmesh <case index> | broadphase | room
// run.mjs starts one child process per (lib, task, mesh) with a timeout, so an anchor's crash, out-of-memory or
// hang becomes a result row instead of ending the benchmark.
import { loadBin, rays, measure, row, writeAnswers, pairPose, PAIR_CASES, bounds, RAY_COUNT, prng } from './common.mjs';

const [lib, task, arg] = process.argv.slice(2);

// ------------------------------------------------------------------------------------------- three-mesh-bvh
async function tmb() {
  const THREE = await import('three');
  const { MeshBVH, CENTER, SAH } = await import('three-mesh-bvh');
  const geometry = (m) => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(m.positions, 3));
    g.setIndex(new THREE.BufferAttribute(m.indices.slice(), 1)); // MeshBVH reorders the index in place
    return g;
  };
  const strategies = [['CENTER', CENTER], ['SAH', SAH]];
  if (task === 'build') {
    const m = loadBin(arg);
    for (const [name, strategy] of strategies) {
      const g = geometry(m);
      const big = m.triangleCount > 300000;
      const st = measure(() => new MeshBVH(g, { strategy }), big ? 2 : 5, big ? 4000 : 1000);
      row('build', arg, `three-mesh-bvh ${name}`, st, 'ok', { note: `new MeshBVH(geometry, { strategy: ${name} })` });
    }
  } else if (task === 'rays') {
    const m = loadBin(arg);
    const r = rays(arg, m.positions);
    for (const [name, strategy] of strategies) {
      const bvh = new MeshBVH(geometry(m), { strategy });
      const ray = new THREE.Ray();
      const ts = new Float32Array(RAY_COUNT);
      const st = measure(() => {
        for (let i = 0; i < RAY_COUNT; i++) {
          ray.origin.set(r[6 * i], r[6 * i + 1], r[6 * i + 2]);
          ray.direction.set(r[6 * i + 3], r[6 * i + 4], r[6 * i + 5]);
          const hit = bvh.raycastFirst(ray, THREE.DoubleSide);
          ts[i] = hit ? hit.distance : Infinity;
        }
      }, 5, 1500);
      writeAnswers(`tmb-${name}`, arg, ts);
      row('ray1', arg, `three-mesh-bvh ${name}`, st, 'ok', { note: 'bvh.raycastFirst(ray, DoubleSide), 10,000 rays per sample' });
    }
  } else if (task === 'pairs') {
    const cache = {};
    for (const pc of PAIR_CASES) {
      const m = (cache[pc.mesh] ||= loadBin(pc.mesh));
      const g = geometry(m);
      const bvh = new MeshBVH(g, { strategy: SAH });
      g.boundsTree = bvh; // intersectsGeometry then runs BVH against BVH
      const { R, t } = pairPose(m.positions, pc.angle, pc.shift);
      const mat = new THREE.Matrix4().set(R[0], R[1], R[2], t[0], R[3], R[4], R[5], t[1], R[6], R[7], R[8], t[2], 0, 0, 0, 1);
      let hit;
      const so = measure(() => { hit = bvh.intersectsGeometry(g, mat); }, 5, 600);
      row('overlap', pc.name, 'three-mesh-bvh SAH', so, 'ok', { answer: hit ? 1 : 0, note: 'bvh.intersectsGeometry(geometry with boundsTree, matrix)' });
      let d;
      const t1 = {}, t2 = {};
      const sd = measure(() => { const r = bvh.closestPointToGeometry(g, mat, t1, t2); d = r ? r.distance : NaN; }, 2, 600);
      row('distance', pc.name, 'three-mesh-bvh SAH', sd, 'ok', { answer: d, note: 'bvh.closestPointToGeometry(geometry, matrix, target1, target2)' });
    }
  }
}

// -------------------------------------------------------------------------------------------------- Rapier
async function rapier() {
  const RAPIER = (await import('@dimforge/rapier3d-compat')).default;
  await RAPIER.init();
  const zero = { x: 0, y: 0, z: 0 };
  if (task === 'build') {
    const m = loadBin(arg);
    const world = new RAPIER.World(zero);
    const big = m.triangleCount > 300000;
    const st = measure(() => {
      const c = world.createCollider(RAPIER.ColliderDesc.trimesh(m.positions, m.indices));
      world.removeCollider(c, false);
    }, big ? 2 : 5, big ? 4000 : 1000);
    row('build', arg, 'Rapier TriMesh', st, 'ok', { note: 'world.createCollider(ColliderDesc.trimesh(...)) + removeCollider' });
  } else if (task === 'rays') {
    const m = loadBin(arg);
    const r = rays(arg, m.positions);
    const world = new RAPIER.World(zero);
    world.createCollider(RAPIER.ColliderDesc.trimesh(m.positions, m.indices));
    world.step(); // makes the collider visible to scene queries
    const ray = new RAPIER.Ray({ x: 0, y: 0, z: 0 }, { x: 1, y: 0, z: 0 });
    const ts = new Float32Array(RAY_COUNT);
    const st = measure(() => {
      for (let i = 0; i < RAY_COUNT; i++) {
        ray.origin.x = r[6 * i]; ray.origin.y = r[6 * i + 1]; ray.origin.z = r[6 * i + 2];
        ray.dir.x = r[6 * i + 3]; ray.dir.y = r[6 * i + 4]; ray.dir.z = r[6 * i + 5];
        const hit = world.castRay(ray, 1e9, true);
        ts[i] = hit ? hit.timeOfImpact : Infinity;
      }
    }, 5, 1500);
    writeAnswers('rapier', arg, ts);
    row('ray1', arg, 'Rapier world.castRay', st, 'ok', { note: 'world.castRay(ray, 1e9, solid=true), 10,000 rays per sample' });
  } else if (task === 'meshmesh') {
    // Mesh against mesh in a physics engine: the first world.step() with a kinematic TriMesh overlapping a fixed one.
    const pc = PAIR_CASES[Number(arg)];
    const m = loadBin(pc.mesh);
    const { t, q } = pairPose(m.positions, pc.angle, pc.shift);
    const world = new RAPIER.World(zero);
    world.createCollider(RAPIER.ColliderDesc.trimesh(m.positions, m.indices));
    const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased()
      .setTranslation(t[0], t[1], t[2]).setRotation({ x: q[0], y: q[1], z: q[2], w: q[3] }));
    world.createCollider(RAPIER.ColliderDesc.trimesh(m.positions, m.indices)
      .setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.ALL), body);
    const t0 = performance.now();
    world.step();
    const ms = performance.now() - t0;
    let pairs = 0, touching = false;
    world.narrowPhase.contactPairsWith(world.getCollider(0).handle, () => { pairs++; touching = true; });
    row('overlap', pc.name, 'Rapier world.step (TriMesh vs TriMesh)', { med: ms, min: ms, max: ms, n: 1, calls: 1 }, 'ok',
      { answer: touching ? 1 : 0, note: `first world.step() with a kinematic TriMesh on a fixed TriMesh, all collision types; ${pairs} contact pair callbacks` });
  } else if (task === 'broadphase') {
    const N = 10000, rnd = prng(7);
    const world = new RAPIER.World(zero);
    const bodies = [], pos = new Float32Array(3 * N);
    const side = 100; // 10k boxes of size ~1 in a 100^3 region: a sparse but non-trivial pair set
    for (let i = 0; i < N; i++) {
      for (let a = 0; a < 3; a++) pos[3 * i + a] = rnd() * side;
      const b = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]));
      world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5).setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.ALL).setSensor(true), b);
      bodies.push(b);
    }
    world.step();
    const v = { x: 0, y: 0, z: 0 };
    const st = measure(() => {
      for (let i = 0; i < N; i++) {
        for (let a = 0; a < 3; a++) pos[3 * i + a] += (rnd() - 0.5) * 0.2;
        v.x = pos[3 * i]; v.y = pos[3 * i + 1]; v.z = pos[3 * i + 2];
        bodies[i].setNextKinematicTranslation(v);
      }
      world.step();
    }, 5, 2000);
    row('broadphase', '10k moving boxes', 'Rapier world.step', st, 'ok', { note: '10,000 kinematic sensor cuboids, all move every step: setNextKinematicTranslation x 10k + world.step() (includes narrow phase of sensor pairs)' });
  } else if (task === 'room') {
    const w = roomSetup(loadBin('dragon11k'));
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    for (const p of w.statics) world.createCollider(RAPIER.ColliderDesc.trimesh(w.m.positions, w.m.indices).setTranslation(...p));
    for (const p of w.movers) {
      const b = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(...p));
      world.createCollider(RAPIER.ColliderDesc.convexHull(w.m.positions), b);
    }
    world.step();
    const st = measure(() => world.step(), 5, 2000);
    row('room', '100 bodies, 5 moving', 'Rapier world.step', st, 'ok', { note: `95 fixed TriMesh dragons (11k tris each, ${w.tris} tris) + 5 dynamic convex hulls of the dragon falling onto them (engines cannot move a TriMesh against TriMeshes)` });
  }
}

// 100 dragons on a 10 x 10 grid; 5 of them start above their +X neighbours and fall into them.
function roomSetup(m) {
  const { diag } = bounds(m.positions);
  const statics = [], movers = [];
  for (let i = 0; i < 100; i++) {
    const p = [(i % 10) * diag * 0.8, 0, Math.floor(i / 10) * diag * 0.8];
    if (i % 20 === 7) movers.push([p[0] + diag * 0.8, diag * 0.4, p[2]]); // above the static neighbour at +X
    else statics.push(p);
  }
  return { m, statics, movers, tris: statics.length * m.triangleCount };
}

// --------------------------------------------------------------------------------------------------- Jolt
async function jolt() {
  const Jolt = await (await import('jolt-physics/wasm-compat')).default();
  const LAYER_STATIC = 0, LAYER_MOVING = 1;
  function makeSystem(maxBodies = 1024) {
    const settings = new Jolt.JoltSettings();
    settings.mMaxBodies = maxBodies;
    settings.mMaxBodyPairs = Math.max(65536, 4 * maxBodies);
    settings.mMaxContactConstraints = Math.max(10240, 2 * maxBodies);
    const pairFilter = new Jolt.ObjectLayerPairFilterTable(2);
    pairFilter.EnableCollision(LAYER_STATIC, LAYER_MOVING);
    pairFilter.EnableCollision(LAYER_MOVING, LAYER_MOVING);
    const bpInterface = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
    bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, new Jolt.BroadPhaseLayer(0));
    bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, new Jolt.BroadPhaseLayer(1));
    settings.mObjectLayerPairFilter = pairFilter;
    settings.mBroadPhaseLayerInterface = bpInterface;
    settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, pairFilter, 2);
    const joltInterface = new Jolt.JoltInterface(settings);
    Jolt.destroy(settings);
    return { joltInterface, system: joltInterface.GetPhysicsSystem(), bodies: joltInterface.GetPhysicsSystem().GetBodyInterface() };
  }
  function fill(m) {
    const verts = new Jolt.VertexList(), tris = new Jolt.IndexedTriangleList();
    verts.reserve(m.vertexCount);
    tris.reserve(m.triangleCount);
    const f = new Jolt.Float3(0, 0, 0);
    for (let v = 0; v < m.vertexCount; v++) {
      f.x = m.positions[3 * v]; f.y = m.positions[3 * v + 1]; f.z = m.positions[3 * v + 2];
      verts.push_back(f);
    }
    const t = new Jolt.IndexedTriangle();
    for (let i = 0; i < m.triangleCount; i++) {
      t.set_mIdx(0, m.indices[3 * i]); t.set_mIdx(1, m.indices[3 * i + 1]); t.set_mIdx(2, m.indices[3 * i + 2]);
      tris.push_back(t);
    }
    Jolt.destroy(f); Jolt.destroy(t);
    return { verts, tris };
  }
  let kept = 0; // triangles left after the settings' constructor sanitized the list (it drops "degenerate" ones)
  const meshShape = (lists) => {
    const settings = new Jolt.MeshShapeSettings(lists.verts, lists.tris, new Jolt.PhysicsMaterialList());
    kept = settings.mIndexedTriangles.size();
    const result = settings.Create();
    if (result.HasError()) throw new Error(`MeshShapeSettings.Create: ${result.GetError().c_str()}`);
    const shape = result.Get();
    shape.AddRef();
    Jolt.destroy(settings);
    return shape;
  };
  const memNote = () => `heap ${(Jolt.HEAP8.length / 1048576).toFixed(0)} MB`;
  if (task === 'build' || task === 'build10') {
    // build10: the mesh scaled x10, where Jolt's absolute degenerate-triangle threshold keeps (nearly) every triangle.
    const m = loadBin(arg);
    const scale = task === 'build10' ? 10 : 1;
    if (scale !== 1) for (let i = 0; i < m.positions.length; i++) m.positions[i] *= scale;
    const label = scale === 1 ? '' : ' (mesh x10)';
    const big = m.triangleCount > 300000;
    let lists;
    const sf = measure(() => { if (lists) { Jolt.destroy(lists.verts); Jolt.destroy(lists.tris); } lists = fill(m); }, big ? 1 : 3, big ? 4000 : 500);
    row('build-fill', arg, `Jolt VertexList/IndexedTriangleList fill${label}`, sf, 'ok', { note: 'JS -> wasm list fill before MeshShapeSettings' });
    const st = measure(() => { meshShape(lists).Release(); }, big ? 2 : 5, big ? 4000 : 1000);
    const dropped = m.triangleCount - kept;
    row('build', arg, `Jolt MeshShape${label}`, st, dropped > m.triangleCount * 0.001 ? 'wrong' : 'ok',
      { answer: kept, note: `MeshShapeSettings(...).Create(); kept ${kept} of ${m.triangleCount} triangles (${memNote()})` });
  } else if (task === 'rays') {
    const m = loadBin(arg);
    const r = rays(arg, m.positions);
    const { system, bodies } = makeSystem();
    const shape = meshShape(fill(m));
    const bcs = new Jolt.BodyCreationSettings(shape, new Jolt.RVec3(0, 0, 0), new Jolt.Quat(0, 0, 0, 1), Jolt.EMotionType_Static, LAYER_STATIC);
    bodies.AddBody(bodies.CreateBody(bcs).GetID(), Jolt.EActivation_DontActivate);
    system.OptimizeBroadPhase();
    const len = 4 * bounds(m.positions).diag; // Jolt rays are segments: direction * length, hit at a fraction
    const query = system.GetNarrowPhaseQuery();
    const settings = new Jolt.RayCastSettings();
    settings.mBackFaceModeTriangles = Jolt.EBackFaceMode_CollideWithBackFaces;
    const collector = new Jolt.CastRayClosestHitCollisionCollector();
    const bpFilter = new Jolt.BroadPhaseLayerFilter(), objFilter = new Jolt.ObjectLayerFilter();
    const bodyFilter = new Jolt.BodyFilter(), shapeFilter = new Jolt.ShapeFilter();
    const ray = new Jolt.RRayCast();
    const ts = new Float32Array(RAY_COUNT);
    const st = measure(() => {
      for (let i = 0; i < RAY_COUNT; i++) {
        ray.mOrigin.Set(r[6 * i], r[6 * i + 1], r[6 * i + 2]);
        ray.mDirection.Set(r[6 * i + 3] * len, r[6 * i + 4] * len, r[6 * i + 5] * len);
        collector.Reset();
        query.CastRay(ray, settings, collector, bpFilter, objFilter, bodyFilter, shapeFilter);
        ts[i] = collector.HadHit() ? collector.mHit.mFraction * len : Infinity;
      }
    }, 5, 1500);
    writeAnswers('jolt', arg, ts);
    row('ray1', arg, 'Jolt NarrowPhaseQuery.CastRay', st, 'ok', { note: `CastRay with a closest-hit collector, back faces on; mesh at native scale, ${kept} of ${m.triangleCount} triangles kept (${memNote()})` });
  } else if (task === 'broadphase') {
    const N = 10000, rnd = prng(7);
    const { joltInterface, bodies } = makeSystem(N + 16);
    const box = new Jolt.BoxShape(new Jolt.Vec3(0.5, 0.5, 0.5), 0.05, null);
    const ids = [], pos = new Float32Array(3 * N), side = 100;
    for (let i = 0; i < N; i++) {
      for (let a = 0; a < 3; a++) pos[3 * i + a] = rnd() * side;
      const bcs = new Jolt.BodyCreationSettings(box, new Jolt.RVec3(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]), new Jolt.Quat(0, 0, 0, 1), Jolt.EMotionType_Kinematic, LAYER_MOVING);
      const body = bodies.CreateBody(bcs);
      Jolt.destroy(bcs);
      bodies.AddBody(body.GetID(), Jolt.EActivation_Activate);
      ids.push(body.GetID());
    }
    joltInterface.GetPhysicsSystem().OptimizeBroadPhase();
    const p = new Jolt.RVec3(0, 0, 0), q = new Jolt.Quat(0, 0, 0, 1);
    const st = measure(() => {
      for (let i = 0; i < N; i++) {
        for (let a = 0; a < 3; a++) pos[3 * i + a] += (rnd() - 0.5) * 0.2;
        p.Set(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
        bodies.MoveKinematic(ids[i], p, q, 1 / 60);
      }
      joltInterface.Step(1 / 60, 1);
    }, 5, 2000);
    row('broadphase', '10k moving boxes', 'Jolt PhysicsSystem step', st, 'ok', { note: '10,000 kinematic boxes, all move every step: MoveKinematic x 10k + JoltInterface.Step (includes narrow phase)' });
  } else if (task === 'room') {
    const w = roomSetup(loadBin('dragon11k'));
    const { joltInterface, bodies } = makeSystem(256);
    const shape = meshShape(fill(w.m));
    for (const p of w.statics) {
      const bcs = new Jolt.BodyCreationSettings(shape, new Jolt.RVec3(...p), new Jolt.Quat(0, 0, 0, 1), Jolt.EMotionType_Static, LAYER_STATIC);
      bodies.AddBody(bodies.CreateBody(bcs).GetID(), Jolt.EActivation_DontActivate);
    }
    const hullSettings = new Jolt.ConvexHullShapeSettings();
    for (let v = 0; v < w.m.vertexCount; v++) hullSettings.mPoints.push_back(new Jolt.Vec3(w.m.positions[3 * v], w.m.positions[3 * v + 1], w.m.positions[3 * v + 2]));
    const hull = hullSettings.Create().Get();
    for (const p of w.movers) {
      const bcs = new Jolt.BodyCreationSettings(hull, new Jolt.RVec3(...p), new Jolt.Quat(0, 0, 0, 1), Jolt.EMotionType_Dynamic, LAYER_MOVING);
      bodies.AddBody(bodies.CreateBody(bcs).GetID(), Jolt.EActivation_Activate);
    }
    joltInterface.GetPhysicsSystem().OptimizeBroadPhase();
    joltInterface.Step(1 / 60, 1);
    const st = measure(() => joltInterface.Step(1 / 60, 1), 5, 2000);
    row('room', '100 bodies, 5 moving', 'Jolt PhysicsSystem step', st, 'ok', { note: `95 static MeshShape dragons sharing one shape (${w.tris} tris) + 5 dynamic convex hulls falling onto them` });
  }
}

const libs = { tmb, rapier, jolt };
if (!libs[lib]) {
  console.error(`unknown anchor ${lib}`);
  process.exit(2);
}
await libs[lib]();
