// The first snug page: a furnished room, an orbit camera, and pointer drag of furniture on the floor. A dragged
// object stops at its last collision-free pose along the motion and slides along what blocks it; blockers turn
// red, contact points and normals show, and the overlay reports query times.
import {
  ACESFilmicToneMapping, AmbientLight, BoxGeometry, BufferAttribute, BufferGeometry, Color, CylinderGeometry,
  DirectionalLight, Fog, Group, HemisphereLight, Mesh, MeshStandardMaterial, PCFSoftShadowMap, PerspectiveCamera,
  Plane, Raycaster, Scene, SRGBColorSpace, TorusKnotGeometry, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import wasmUrl from '../build/wasm/snug.wasm?url';
import { Snug } from '../wasm/snug.js';
import { SnugSync, DragMover, matrixFromPose, geometryArrays } from './snug-three.js';
import { ContactHelper, TriangleHelper, HierarchyHelper, hierarchyFromBlob } from './helpers.js';
import { bunny, dragon11k, teapot } from 'virtual:snug-meshes';

// Two threads when the page is cross-origin isolated (the server sends COOP/COEP, see vite.config.js): hierarchy
// builds then use the threaded module, which vite.config.js serves and ships unbundled in snug-mt/. Without
// isolation there is no SharedArrayBuffer, so one thread on the plain module.
function createSnug() {
  if (!globalThis.crossOriginIsolated) return Snug.create({ locateFile: () => wasmUrl });
  return Snug.create({ threads: 2, threadedModuleUrl: new URL('snug-mt/snug-mt.mjs', window.location.href).href });
}

const BLOCKED = new Color(0xe63946);

function meshGeometry({ positions, indices }, { height, rotateY = 0 }) {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(positions.slice(), 3));
  g.setIndex(new BufferAttribute(indices.slice(), 1));
  if (rotateY) g.rotateY(rotateY);
  g.computeBoundingBox();
  const b = g.boundingBox;
  const s = height / (b.max.y - b.min.y);
  g.translate(-(b.min.x + b.max.x) / 2, -b.min.y, -(b.min.z + b.max.z) / 2);
  g.scale(s, s, s);
  g.computeVertexNormals();
  g.computeBoundingBox();
  return g;
}

// Furniture from boxes: each part [w, h, d, x, y, z] merged into one indexed geometry.
function boxes(parts) {
  const gs = parts.map(([w, h, d, x, y, z]) => new BoxGeometry(w, h, d).translate(x, y, z));
  const g = mergeGeometries(gs);
  g.computeBoundingBox();
  return g;
}

const table = () => boxes([
  [1.6, 0.06, 0.9, 0, 0.72, 0],
  [0.07, 0.69, 0.07, -0.72, 0.345, -0.37], [0.07, 0.69, 0.07, 0.72, 0.345, -0.37],
  [0.07, 0.69, 0.07, -0.72, 0.345, 0.37], [0.07, 0.69, 0.07, 0.72, 0.345, 0.37],
]);
const sofa = () => boxes([
  [2.0, 0.42, 0.9, 0, 0.21, 0], [2.0, 0.5, 0.2, 0, 0.67, -0.35],
  [0.2, 0.25, 0.9, -0.9, 0.545, 0], [0.2, 0.25, 0.9, 0.9, 0.545, 0],
]);
const shelf = () => boxes([
  [0.04, 1.8, 0.4, -0.5, 0.9, 0], [0.04, 1.8, 0.4, 0.5, 0.9, 0], [1.04, 0.04, 0.4, 0, 0.02, 0],
  [1.04, 0.04, 0.4, 0, 0.6, 0], [1.04, 0.04, 0.4, 0, 1.2, 0], [1.04, 0.04, 0.4, 0, 1.78, 0],
  [1.04, 1.8, 0.02, 0, 0.9, -0.19],
]);

function material(color, roughness = 0.75, metalness = 0) {
  return new MeshStandardMaterial({ color, roughness, metalness });
}

export async function start(container = document.body) {
  const overlay = document.getElementById('stats');
  const status = document.getElementById('status');
  const renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  renderer.outputColorSpace = SRGBColorSpace;
  renderer.toneMapping = ACESFilmicToneMapping;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = PCFSoftShadowMap;
  container.appendChild(renderer.domElement);

  const scene = new Scene();
  scene.background = new Color(0x1d2230);
  scene.fog = new Fog(0x1d2230, 14, 30);
  const camera = new PerspectiveCamera(45, window.innerWidth / window.innerHeight, 0.05, 100);
  camera.position.set(0.2, 6.4, 8.8);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.set(0, 0.5, -0.3);
  controls.maxPolarAngle = Math.PI * 0.48;
  controls.enableDamping = true;
  controls.update();

  scene.add(new HemisphereLight(0xdfe9ff, 0x3a3026, 0.9));
  scene.add(new AmbientLight(0xffffff, 0.15));
  const sun = new DirectionalLight(0xfff1dc, 2.2);
  sun.position.set(4, 8, 5);
  sun.castShadow = true;
  sun.shadow.mapSize.set(1024, 1024);
  Object.assign(sun.shadow.camera, { left: -7, right: 7, top: 7, bottom: -7, near: 1, far: 25 });
  sun.shadow.bias = -0.0005;
  scene.add(sun);

  const snug = await createSnug();
  // Bodies mirror the three.js hierarchy when the module has scenes (the teapot is a child of the table).
  const sync = new SnugSync(snug, { scene: typeof snug.module._snug_scene_create === 'function' });
  const room = new Group();
  room.name = 'room';
  scene.add(room);

  const items = {};
  function place(name, geometry, mat, { x = 0, z = 0, y = 0, rotY = 0, parent = room, draggable = true, isStatic = false, mesh } = {}) {
    const m = new Mesh(geometry, mat.clone());
    m.name = name;
    m.position.set(x, y, z);
    m.rotation.y = rotY;
    m.castShadow = true;
    m.receiveShadow = true;
    m.userData.baseColor = m.material.color.clone();
    m.userData.draggable = draggable;
    parent.add(m);
    m.updateWorldMatrix(true, false);
    items[name] = sync.add(m, { isStatic, label: name, mesh });
    items[name].fromWorker = !!mesh;
    return m;
  }

  // Room shell: the floor is never a blocker for horizontal drags; walls are static furniture.
  const floor = place('floor', new BoxGeometry(10, 0.1, 8).translate(0, -0.05, 0), material(0xb08d6e, 0.9), { draggable: false, isStatic: true });
  floor.castShadow = false;
  const wallMat = material(0xe9e4da, 0.95);
  place('back wall', new BoxGeometry(10, 2.6, 0.12).translate(0, 1.3, 0), wallMat, { z: -4.06, draggable: false, isStatic: true });
  place('left wall', new BoxGeometry(0.12, 2.6, 8).translate(0, 1.3, 0), wallMat, { x: -5.06, draggable: false, isStatic: true });
  place('right wall', new BoxGeometry(0.12, 2.6, 8).translate(0, 1.3, 0), wallMat, { x: 5.06, draggable: false, isStatic: true });

  const tableObj = place('table', table(), material(0x8b5a3c, 0.6), { x: -1.2, z: -0.6 });
  place('teapot', meshGeometry(teapot, { height: 0.2 }), material(0xf1faee, 0.3), { x: 0.35, y: 0.75, z: 0.05, parent: tableObj });
  place('sofa', sofa(), material(0x3d5a80, 0.85), { x: 0.6, z: -3.3 });
  place('shelf', shelf(), material(0x6b705c, 0.7), { x: 3.6, z: -3.7 });
  place('bunny', meshGeometry(bunny, { height: 0.55 }), material(0xd4a373, 0.5), { x: 1.9, z: 0.9 });
  // The dragon's hierarchy is built in a Web Worker; the main thread only loads the returned blob.
  const dragonGeometry = meshGeometry(dragon11k, { height: 0.7, rotateY: -0.4 });
  let dragonMesh = null;
  if (typeof snug.module._snug_mesh_serialize === 'function') {
    status.textContent = 'building the dragon hierarchy in a worker…';
    dragonMesh = await snug.buildMeshInWorker(geometryArrays(dragonGeometry), {
      wasmUrl: new URL(wasmUrl, window.location.href).href, label: 'dragon',
      onProgress: (stage, f) => { status.textContent = `dragon hierarchy in a worker: ${stage} ${Math.round(f * 100)}%`; },
    });
  }
  place('dragon', dragonGeometry, material(0x2a9d8f, 0.35, 0.1), { x: -3.2, z: 1.2, mesh: dragonMesh });
  place('stool', new CylinderGeometry(0.22, 0.25, 0.48, 28).translate(0, 0.24, 0), material(0xe9c46a, 0.5), { x: 0.4, z: 1.6 });
  place('sculpture', new TorusKnotGeometry(0.28, 0.09, 120, 14).translate(0, 0.37, 0), material(0x9b5de5, 0.3, 0.3), { x: 3.4, z: 1.5 });

  const contacts = new ContactHelper({ normalLength: 0.35 });
  const triangles = new TriangleHelper();
  scene.add(contacts, triangles);

  // Press H to step through the hierarchy of the last grabbed object level by level (then off).
  const hierarchy = { helper: null, entry: null, level: -1 };
  function showHierarchy(entry, level) {
    if (hierarchy.helper && hierarchy.entry !== entry) {
      scene.remove(hierarchy.helper);
      hierarchy.helper = null;
    }
    hierarchy.entry = entry;
    if (!hierarchy.helper) {
      const { boxes, levels } = hierarchyFromBlob(entry.mesh.serialize());
      hierarchy.helper = new HierarchyHelper(boxes, levels);
      hierarchy.helper.matrixAutoUpdate = false;
      scene.add(hierarchy.helper);
    }
    hierarchy.level = level >= hierarchy.helper.levels.length ? -1 : level;
    hierarchy.helper.showLevel(hierarchy.level);
    hierarchy.helper.matrix.copy(matrixFromPose(entry.pose));
    hierarchy.helper.matrixWorldNeedsUpdate = true;
    requestRender();
  }
  window.addEventListener('keydown', (ev) => {
    if (ev.key !== 'h' && ev.key !== 'H') return;
    const entry = hierarchy.entry || items.dragon;
    if (typeof snug.module._snug_mesh_serialize !== 'function') return;
    showHierarchy(entry, hierarchy.level + 1);
  });

  const mover = new DragMover(sync, { ignore: (e) => e.object.name === 'floor' });
  const triCount = sync.entries.reduce((n, e) => n + (e.arrays.indices ? e.arrays.indices.length / 3 : e.arrays.positions.length / 9), 0);

  // ---------------------------------------------------------------- pointer drag on the floor plane
  const raycaster = new Raycaster();
  const ndc = new Vector2();
  const plane = new Plane(new Vector3(0, 1, 0), 0);
  const grab = { entry: null, offset: new Vector3(), hit: new Vector3() };
  const dragTargets = () => sync.entries.filter((e) => e.object.userData.draggable).map((e) => e.object);

  function pointerRay(ev) {
    const r = renderer.domElement.getBoundingClientRect();
    ndc.set(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
  }

  // The dragged entry is the top-most registered ancestor below the room, so children move with parents.
  function dragRoot(object) {
    let o = object;
    while (o.parent && o.parent !== room && !sync.byObject.has(o)) o = o.parent;
    while (o.parent && o.parent !== room && sync.byObject.has(o.parent)) o = o.parent;
    return sync.byObject.get(o);
  }

  // Picking: the core's scene raycast when the module has it (bodies carry their Object3D), else three.js.
  const useCoreRays = !!sync.scene && typeof snug.module._snug_mesh_raycast === 'function';
  function pick() {
    const t0 = performance.now();
    let object = null;
    const point = new Vector3();
    if (useCoreRays) {
      const h = sync.scene.raycast(raycaster.ray.origin, raycaster.ray.direction);
      if (h && h.body && h.body.userData.userData.draggable) { object = h.body.userData; point.fromArray(h.point); }
    } else {
      const h = raycaster.intersectObjects(dragTargets(), false)[0];
      if (h) { object = h.object; point.copy(h.point); }
    }
    stats.pickMs = performance.now() - t0;
    return object && { object, point };
  }

  renderer.domElement.addEventListener('pointerdown', (ev) => {
    pointerRay(ev);
    const hit = pick();
    if (!hit) return;
    grab.entry = dragRoot(hit.object);
    if (hierarchy.helper) showHierarchy(grab.entry, hierarchy.entry === grab.entry ? hierarchy.level : 0);
    else hierarchy.entry = grab.entry;
    plane.constant = -hit.point.y;
    grab.hit.copy(hit.point);
    grab.offset.copy(grab.entry.object.getWorldPosition(new Vector3())).sub(hit.point);
    controls.enabled = false;
    renderer.domElement.setPointerCapture(ev.pointerId);
  });

  const target = new Vector3();
  renderer.domElement.addEventListener('pointermove', (ev) => {
    if (!grab.entry) return;
    pointerRay(ev);
    if (!raycaster.ray.intersectPlane(plane, target)) return;
    const pos = grab.entry.object.getWorldPosition(new Vector3());
    const delta = target.add(grab.offset).sub(pos);
    delta.y = 0;
    dragMove(grab.entry, delta);
  });

  const release = (ev) => {
    if (!grab.entry) return;
    grab.entry = null;
    controls.enabled = true;
    if (renderer.domElement.hasPointerCapture(ev.pointerId)) renderer.domElement.releasePointerCapture(ev.pointerId);
  };
  renderer.domElement.addEventListener('pointerup', release);
  renderer.domElement.addEventListener('pointercancel', release);

  const stats = { moves: 0, lastMs: 0, avgMs: 0, queries: 0, blocked: '', pickMs: 0 };
  function dragMove(entry, delta) {
    mover.move(entry, delta);
    stats.moves++;
    stats.lastMs = mover.lastQueryMs;
    stats.avgMs = stats.avgMs ? stats.avgMs * 0.9 + stats.lastMs * 0.1 : stats.lastMs;
    stats.queries = mover.lastQueries;
    for (const e of sync.entries) if (e.object.userData.baseColor) e.object.material.color.copy(e.object.userData.baseColor);
    for (const b of mover.blockers) b.object.material.color.copy(BLOCKED);
    stats.blocked = [...mover.blockers].map((b) => b.object.name).join(', ');
    contacts.set(mover.contacts);
    if (hierarchy.helper && hierarchy.entry === entry) {
      hierarchy.helper.matrix.copy(matrixFromPose(entry.pose));
      hierarchy.helper.matrixWorldNeedsUpdate = true;
    }
    requestRender();
    triangles.clear();
    for (const c of mover.contacts) {
      // The snug arrays are scaled mesh space: draw them with the rigid pose, not the scaled matrixWorld.
      triangles.addTriangles(c.entry.arrays, [c.triB], matrixFromPose(c.entry.pose));
      if (c.source) triangles.addTriangles(c.source.arrays, [c.triA], matrixFromPose(c.source.pose));
    }
  }

  // ---------------------------------------------------------------- overlay and loop
  // Render on demand (camera moved, object dragged, resize): an idle page costs nothing, and pointer events are
  // never queued behind frames on slow (software) GPUs.
  let dirty = true, renderMs = 0, statsT = 0;
  function drawStats() {
    overlay.innerHTML =
      `<b>${triCount.toLocaleString()}</b> triangles in <b>${sync.entries.length}</b> objects<br>` +
      `drag query <b>${stats.lastMs.toFixed(2)} ms</b> (avg ${stats.avgMs.toFixed(2)} ms, ${stats.queries} ${mover.useSweep ? 'sweeps' : 'overlap tests'})<br>` +
      `pick ${(stats.pickMs * 1000).toFixed(0)} µs (${useCoreRays ? 'snug scene ray' : 'three.js ray'}) · blocked by <b>${stats.blocked || '—'}</b><br>` +
      `wasm heap ${(snug.heapBytes / 1048576).toFixed(0)} MB · core ${(snug.allocatedBytes() / 1048576).toFixed(2)} MB · render ${renderMs.toFixed(1)} ms`;
  }
  const requestRender = () => { dirty = true; };
  controls.addEventListener('change', requestRender);
  function frame() {
    controls.update();
    if (dirty) {
      dirty = false;
      const r0 = performance.now();
      renderer.render(scene, camera);
      renderMs = performance.now() - r0;
    }
    const now = performance.now();
    if (now - statsT > 250) { statsT = now; drawStats(); }
    requestAnimationFrame(frame);
  }
  window.addEventListener('resize', () => {
    camera.aspect = window.innerWidth / window.innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(window.innerWidth, window.innerHeight);
    requestRender();
  });
  drawStats();
  status.textContent = '';
  requestAnimationFrame(frame);

  // Test hooks (tests/browser): screen positions, core overlap checks and colors, nothing that changes state.
  const app = {
    snug, sync, mover, items, camera, renderer, stats,
    screenOf(name) {
      const p = items[name].object.getWorldPosition(new Vector3());
      p.y += 0.1;
      p.project(camera);
      const r = renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
    screenOfWorld(x, y, z) {
      const p = new Vector3(x, y, z).project(camera);
      const r = renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
    },
    position(name) { return items[name].object.getWorldPosition(new Vector3()).toArray(); },
    overlaps(a, b) { return snug.overlap(items[a].mesh, items[a].pose, items[b].mesh, items[b].pose); },
    isBlocked(name) { return items[name].object.material.color.equals(BLOCKED); },
    hierarchy,
    render() { renderer.render(scene, camera); },
    requestRender,
  };
  window.snugApp = app;
  return app;
}
