// The XR catalog panel, worn above the left controller: the catalog's items (pick one, then point into the room
// and pull the trigger to put it there) and the editor's Undo, Redo, Free and Exit. It is a canvas drawn on a
// plane; a controller ray hits it through three's raycaster (a view handle, like the desktop's turn ring: objects
// are picked by the core).
import { CanvasTexture, DoubleSide, Mesh, MeshBasicMaterial, PlaneGeometry, Raycaster, SRGBColorSpace, Vector3 } from 'three';

const WIDTH = 0.32;                 // metres
const PX = 1024, PY = 704;          // canvas pixels (PX / WIDTH per metre)
const ACTIONS = [['undo', 'Undo'], ['redo', 'Redo'], ['free', 'Free'], ['exit', 'Exit']];
const COLUMNS = 4, ROW = 88, TOP = 120, GAP = 8;

export class XrPanel {
  constructor({ catalog }) {
    this.catalog = catalog;
    this.canvas = document.createElement('canvas');
    this.canvas.width = PX;
    this.canvas.height = PY;
    this.texture = new CanvasTexture(this.canvas);
    this.texture.colorSpace = SRGBColorSpace;
    this.mesh = new Mesh(new PlaneGeometry(WIDTH, (WIDTH * PY) / PX),
      new MeshBasicMaterial({ map: this.texture, side: DoubleSide, transparent: true }));
    this.mesh.name = 'xr catalog panel';
    // Above the controller, leaning back towards the user's eyes.
    this.mesh.position.set(0, 0.16, -0.02);
    this.mesh.rotation.x = -0.5;
    this.state = { armed: null, free: false, undo: false, redo: false, hover: null };
    this._raycaster = new Raycaster();
    this._layout();
    catalog.addEventListener('add', () => this._layout());
    catalog.addEventListener('remove', () => this._layout());
  }

  /** Update what the buttons show ({ armed, free, undo, redo, hover }: hover is a button key or null). */
  set(state) {
    const next = { ...this.state, ...state };
    if (Object.keys(next).every((k) => next[k] === this.state[k])) return;
    this.state = next;
    this._draw();
  }

  /** The button the ray (three.js Ray) points at: { key, kind: 'item' | 'action', id, distance } or null. */
  hit(ray) {
    if (!this.mesh.visible || !this.mesh.parent) return null;
    this._raycaster.ray.copy(ray);
    const [h] = this._raycaster.intersectObject(this.mesh, false);
    if (!h) return null;
    const x = h.uv.x * PX, y = (1 - h.uv.y) * PY;
    const b = this.buttons.find((b) => x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h);
    return { key: b?.key ?? null, kind: b?.kind ?? null, id: b?.id ?? null, distance: h.distance };
  }

  /** The world point in the middle of button `key` (e.g. 'item:chair', 'action:undo'): where a test aims. */
  centerOf(key) {
    const b = this.buttons.find((b) => b.key === key);
    if (!b) throw new Error(`the XR panel has no button ${key}`);
    this.mesh.updateWorldMatrix(true, false);
    const u = (b.x + b.w / 2) / PX - 0.5, v = 0.5 - (b.y + b.h / 2) / PY;
    return new Vector3(u * WIDTH, (v * WIDTH * PY) / PX, 0).applyMatrix4(this.mesh.matrixWorld);
  }

  _layout() {
    const w = (PX - GAP * (COLUMNS + 1)) / COLUMNS;
    this.buttons = ACTIONS.map(([id, label], k) => ({ key: `action:${id}`, kind: 'action', id, label, x: GAP + k * (w + GAP), y: 16, w, h: ROW }));
    this.catalog.insertable().forEach((item, k) => {
      const c = k % COLUMNS, r = Math.floor(k / COLUMNS);
      this.buttons.push({ key: `item:${item.id}`, kind: 'item', id: item.id, label: item.name, x: GAP + c * (w + GAP), y: TOP + r * (ROW * 0.7 + GAP), w, h: ROW * 0.7 });
    });
    this._draw();
  }

  _draw() {
    const g = this.canvas.getContext('2d');
    const { armed, free, undo, redo, hover } = this.state;
    g.clearRect(0, 0, PX, PY);
    g.fillStyle = 'rgba(20, 24, 36, 0.92)';
    g.beginPath();
    g.roundRect(0, 0, PX, PY, 28);
    g.fill();
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    for (const b of this.buttons) {
      const on = (b.kind === 'item' && b.id === armed) || (b.id === 'free' && free);
      const off = (b.id === 'undo' && !undo) || (b.id === 'redo' && !redo);
      g.fillStyle = on ? '#2a9d8f' : b.key === hover ? '#3d4a66' : '#2a3146';
      g.beginPath();
      g.roundRect(b.x, b.y, b.w, b.h, 14);
      g.fill();
      g.fillStyle = off ? '#6c7388' : '#f1faee';
      g.font = `${b.kind === 'action' ? 600 : 500} ${b.kind === 'action' ? 40 : 30}px system-ui, sans-serif`;
      g.fillText(b.label, b.x + b.w / 2, b.y + b.h / 2, b.w - 16);
    }
    this.texture.needsUpdate = true;
  }
}
