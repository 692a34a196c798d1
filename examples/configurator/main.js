// A minimal room configurator on the snug package: drag furniture and it slides on what it stands on, stops at what
// is in its way and re-seats onto any offer its labels allow (a book onto the table or the shelf, never the floor);
// R turns the grabbed object 15 degrees about up; + Book / + Lamp, then a click, inserts one on the offer clicked.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { Snug } from 'snug';
import { SnugSync, SnugDrag } from 'snug/three';

const snug = await Snug.create();
const scene = new THREE.Scene();
scene.background = new THREE.Color(0xf0f0f0);
scene.add(new THREE.HemisphereLight(0xffffff, 0x777777, 2.5));
const camera = new THREE.PerspectiveCamera(50, innerWidth / innerHeight, 0.1, 50);
camera.position.set(0, 3.2, 4.2);
const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setSize(innerWidth, innerHeight);
document.body.append(renderer.domElement);
const orbit = new OrbitControls(camera, renderer.domElement);
orbit.target.set(0, 0.5, 0);
orbit.update();
const sync = new SnugSync(snug);

// Items are boxes standing on y = 0: a binding surface under them (what they rest with) and, for furniture, an
// offer on top (what they carry), each polygon counter-clockwise seen from above.
const rect = (w, d, y) => [[-w / 2, y, -d / 2], [-w / 2, y, d / 2], [w / 2, y, d / 2], [w / 2, y, -d / 2]];
const items = {
  floor: { size: [6, 0.1, 5], color: 0xc8b89a, offer: 'onFloor', sunk: true },
  table: { size: [1.4, 0.75, 0.8], color: 0x8b5a2b, rests: 'onFloor', offer: 'onWorkspace' },
  shelf: { size: [1.2, 0.5, 0.4], color: 0x6b4226, rests: 'onFloor', offer: 'onStore' },
  chair: { size: [0.45, 0.45, 0.45], color: 0x3a6ea5, rests: 'onFloor', offer: 'onSeat' },
  book: { size: [0.16, 0.04, 0.22], color: 0xb22222, rests: 'onStore' },
  lamp: { size: [0.2, 0.45, 0.2], color: 0xe8c547, rests: 'onWorkspace' },
};
const geometries = {}, surfaces = {};
for (const [id, { size: [w, h, d], rests, offer, sunk }] of Object.entries(items)) {
  geometries[id] = new THREE.BoxGeometry(w, h, d).translate(0, sunk ? -h / 2 : h / 2, 0);
  surfaces[id] = [];
  if (rests) surfaces[id].push({ kind: 'binding', label: rests, normal: [0, 1, 0], polygon: rect(w, d, 0) });
  if (offer) surfaces[id].push({ kind: 'offer', label: offer, normal: [0, 1, 0], polygon: rect(w, d, sunk ? 0 : h) });
}
const object = (id) => {
  const o = new THREE.Mesh(geometries[id], new THREE.MeshStandardMaterial({ color: items[id].color }));
  o.name = id;
  scene.add(o);
  return o;
};
const entries = [];
function place(id, x, z, on) {
  const o = object(id);
  o.position.set(x, 0, z);
  const e = sync.add(o, { surfaces: surfaces[id], upright: true, isStatic: id === 'floor' });
  if (on) e.body.bind(0, on.body, on.mesh.surfaces().findIndex((s) => s.kind === 'offer'));
  sync.push();
  entries.push(e);
  return e;
}
const floor = place('floor', 0, 0);
const table = place('table', -0.9, 0, floor);
const shelf = place('shelf', 1.5, -1.6, floor);
place('chair', -0.9, 0.9, floor);
place('lamp', -1.3, 0, table);
place('book', 1.5, -1.6, shelf);
place('book', -0.6, 0.1, table);

// Pointer: a press on an object starts a drag through the core's mover; every move is one body.move.
const raycaster = new THREE.Raycaster(), status = document.getElementById('status');
let drag = null, inserting = null;
const rayAt = (e) => {
  raycaster.setFromCamera(new THREE.Vector2((e.clientX / innerWidth) * 2 - 1, -(e.clientY / innerHeight) * 2 + 1), camera);
  return raycaster.ray;
};
const tint = (blockers) => {
  for (const e of sync.entries) e.object.material.emissive.setHex(blockers.has(e.object) ? 0x990000 : 0);
};
renderer.domElement.addEventListener('pointerdown', (e) => {
  const ray = rayAt(e);
  if (inserting) {
    const o = object(inserting);
    try {
      entries.push(sync.insert(o, ray, { surfaces: surfaces[inserting], upright: true }));
      status.textContent = `${inserting} placed`;
    } catch (err) {
      scene.remove(o);
      status.textContent = err.message; // nothing fits under the pointer, or the offer is full
    }
    inserting = null;
    return;
  }
  const hit = raycaster.intersectObjects(entries.filter((x) => !x.isStatic).map((x) => x.object))[0];
  if (!hit) return;
  drag = new SnugDrag(sync, hit.object, hit.point);
  orbit.enabled = false;
  renderer.domElement.setPointerCapture(e.pointerId);
});
renderer.domElement.addEventListener('pointermove', (e) => {
  if (!drag) return;
  const f = drag.move(rayAt(e));
  tint(new Set(f.blockers.map((b) => b.object)));
  status.textContent = `${drag.entry.label} on ${f.rests[0]?.object?.name ?? 'nothing'} ${f.reasons.join(' ')}`;
});
renderer.domElement.addEventListener('pointerup', () => {
  if (!drag) return;
  drag.release();
  drag = null;
  orbit.enabled = true;
  tint(new Set());
});
addEventListener('keydown', (e) => {
  if (drag && e.key.toLowerCase() === 'r') drag.turn(Math.PI / 12, { angleStep: Math.PI / 12 });
});
for (const b of document.querySelectorAll('[data-item]')) b.onclick = () => { inserting = b.dataset.item; };
addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});
renderer.setAnimationLoop(() => renderer.render(scene, camera));
// For scripts and tests: the sync (bodies, bindings) and the scene's consistency check.
window.configurator = { sync, camera, check: () => sync.scene.check() };
