// The 3D view: renderer, scene, lights, camera and its orbit controls, rendered on demand (an idle page costs
// nothing, and pointer events never queue behind frames on slow software GPUs). Maps client coordinates to rays
// and world points back to the screen, and frames a box.
import {
  ACESFilmicToneMapping, AmbientLight, Color, DirectionalLight, EventDispatcher, HemisphereLight, MOUSE,
  PCFSoftShadowMap, PerspectiveCamera, Raycaster, Scene, SRGBColorSpace, TOUCH, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

export class Viewport extends EventDispatcher {
  constructor(container) {
    super();
    this.container = container;
    const renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.outputColorSpace = SRGBColorSpace;
    renderer.toneMapping = ACESFilmicToneMapping;
    renderer.shadowMap.enabled = true;
    renderer.shadowMap.type = PCFSoftShadowMap;
    container.prepend(renderer.domElement);
    this.renderer = renderer;
    this.canvas = renderer.domElement;

    const scene = new Scene();
    scene.background = new Color(0x1d2230);
    this.scene = scene;
    scene.add(new HemisphereLight(0xdfe9ff, 0x3a3026, 0.9));
    scene.add(new AmbientLight(0xffffff, 0.15));
    const sun = new DirectionalLight(0xfff1dc, 2.2);
    sun.position.set(3, 8, 4);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    Object.assign(sun.shadow.camera, { left: -6, right: 6, top: 6, bottom: -6, near: 1, far: 25 });
    sun.shadow.bias = -0.0005;
    scene.add(sun);

    this.camera = new PerspectiveCamera(45, 1, 0.05, 100);
    this.camera.position.set(0.6, 5.4, 7.6);
    // Left drag on empty space orbits, right drag pans, the wheel zooms; one finger orbits, two pinch and orbit.
    // The pointer router (input.js) takes left presses on objects before the controls see them.
    const controls = new OrbitControls(this.camera, this.canvas);
    controls.mouseButtons = { LEFT: MOUSE.ROTATE, MIDDLE: MOUSE.DOLLY, RIGHT: MOUSE.PAN };
    controls.touches = { ONE: TOUCH.ROTATE, TWO: TOUCH.DOLLY_ROTATE };
    controls.target.set(0, 0.4, 0);
    controls.maxPolarAngle = Math.PI * 0.48;
    controls.minDistance = 0.8;
    controls.maxDistance = 25;
    controls.enableDamping = true;
    controls.dampingFactor = 0.1;
    controls.update();
    controls.addEventListener('change', () => this.requestRender());
    this.controls = controls;

    this.raycaster = new Raycaster(); // for the view's own handles (the turn gizmo); objects are picked by the core
    this._ndc = new Vector2();
    this._dirty = true;
    this.renderMs = 0;
    this.frames = 0;
    new ResizeObserver(() => this._resize()).observe(container);
    this._resize();
  }

  _resize() {
    const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.renderer.setSize(w, h);
    this.requestRender();
  }

  requestRender() { this._dirty = true; }

  /** Start the loop; the 'render' event fires before each drawn frame (camera-dependent updates go there). */
  start() {
    const frame = () => {
      this.controls.update();
      if (this._dirty) {
        this._dirty = false;
        this.dispatchEvent({ type: 'render' });
        const t0 = performance.now();
        this.renderer.render(this.scene, this.camera);
        this.renderMs = performance.now() - t0;
        this.frames++;
        if (this.frames === 1) this.dispatchEvent({ type: 'firstframe' });
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }

  /** The camera ray through client coordinates (a new Ray). */
  ray(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    this._ndc.set(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(this._ndc, this.camera);
    return this.raycaster.ray.clone();
  }

  /** Client coordinates of a world point; front is false for a point behind the camera. */
  screenOf(p) {
    const v = new Vector3().copy(p).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height, front: v.z < 1 };
  }

  /** Whether client coordinates are over the 3D view. */
  contains(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    return clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom;
  }

  /**
   * Aim the camera at a world box and move along the viewing direction until the box's corners just fit the view
   * (a bisection on the distance: the sphere around a flat room would leave it small).
   */
  frame(box, margin = 0.9) {
    const centre = box.getCenter(new Vector3());
    const dir = new Vector3().subVectors(this.camera.position, this.controls.target).normalize();
    const corners = [];
    for (let c = 0; c < 8; c++) corners.push(new Vector3(c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y, c & 4 ? box.max.z : box.min.z));
    const fits = (d) => {
      this.camera.position.copy(centre).addScaledVector(dir, d);
      this.camera.lookAt(centre);
      this.camera.updateMatrixWorld();
      return corners.every((p) => {
        const v = p.clone().project(this.camera);
        return v.z < 1 && Math.abs(v.x) <= margin && Math.abs(v.y) <= margin;
      });
    };
    let lo = this.controls.minDistance, hi = this.controls.maxDistance;
    if (!fits(hi)) lo = hi;
    for (let i = 0; i < 40 && hi - lo > 1e-3; i++) {
      const mid = (lo + hi) / 2;
      if (fits(mid)) hi = mid; else lo = mid;
    }
    this.camera.position.copy(centre).addScaledVector(dir, Math.max(lo, hi));
    this.controls.target.copy(centre);
    this.controls.update();
    this.requestRender();
  }
}
