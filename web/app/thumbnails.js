// Catalog thumbnails, rendered by the app: each item once, in a small renderer of its own (the view's renderer
// keeps its size and state), copied into a 2D canvas. The renderer is made when a thumbnail is asked for and
// released when the queue is empty, so it holds no GPU memory while idle.
import {
  ACESFilmicToneMapping, DirectionalLight, HemisphereLight, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene,
  Sphere, SRGBColorSpace, Vector3, WebGLRenderer,
} from 'three';

const THUMB_SIZE = 96; // CSS pixels

export class Thumbnails {
  constructor(size = THUMB_SIZE) {
    this.size = size;
    this._renderer = null;
    this._queue = [];
    this.rendered = 0;
  }

  /** Draw `proto` (a catalog prototype) into `canvas` soon, in idle time. */
  request(proto, canvas) {
    this._queue.push({ proto, canvas });
    if (this._queue.length === 1) this._schedule();
  }

  _schedule() {
    const next = () => {
      const job = this._queue.shift();
      this._draw(job.proto, job.canvas);
      if (this._queue.length) this._schedule();
      else this._release();
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(next, { timeout: 500 });
    else setTimeout(next, 16);
  }

  _draw(proto, canvas) {
    const px = this.size * Math.min(window.devicePixelRatio, 2);
    if (!this._renderer) {
      this._renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
      this._renderer.outputColorSpace = SRGBColorSpace;
      this._renderer.toneMapping = ACESFilmicToneMapping;
      this._renderer.setSize(px, px, false);
    }
    const scene = new Scene();
    scene.add(new HemisphereLight(0xeef3ff, 0x4a4036, 1.6));
    const key = new DirectionalLight(0xffffff, 2.0);
    key.position.set(2, 4, 3);
    scene.add(key);
    const material = new MeshStandardMaterial({ color: proto.color, roughness: 0.6 });
    scene.add(new Mesh(proto.renderGeometry, material));
    const sphere = proto.geometry.boundingBox.getBoundingSphere(new Sphere());
    const camera = new PerspectiveCamera(30, 1, 0.01, 100);
    const dir = new Vector3(1, 0.75, 1.4).normalize();
    camera.position.copy(sphere.center).addScaledVector(dir, (1.08 * sphere.radius) / Math.sin((15 * Math.PI) / 180));
    camera.lookAt(sphere.center);
    this._renderer.render(scene, camera);
    canvas.width = canvas.height = px;
    canvas.getContext('2d').drawImage(this._renderer.domElement, 0, 0);
    material.dispose();
    this.rendered++;
  }

  _release() {
    if (!this._renderer) return;
    this._renderer.dispose();
    this._renderer.forceContextLoss();
    this._renderer = null;
  }
}
