// One tracked controller as the scene shows it: its pointer ray (three's target-ray group, -z forward) with a line
// that ends where it points and a dot there, its model in the grip (from the local input profiles), and what the
// device offers: the ray in room coordinates, the thumbstick, the buttons' presses as queued events and haptic
// pulses. Presses are queued and handled in the frame (hands.js), when the ray's pose is this frame's.
import {
  BufferGeometry, Float32BufferAttribute, Line, LineBasicMaterial, Mesh, MeshBasicMaterial, Ray, SphereGeometry,
} from 'three';

const RAY_LENGTH = 6; // metres shown when the ray meets nothing

export class XrController {
  constructor(xr, index, models) {
    this.index = index;
    this.ray = xr.getController(index);
    this.ray.name = `xr controller ${index}`;
    this.grip = xr.getControllerGrip(index);
    this.grip.add(models.createControllerModel(this.grip));
    this.source = null;    // the XRInputSource while connected
    this.events = [];      // 'selectstart' | 'selectend' | 'squeezestart' queued since the last frame

    const g = new BufferGeometry();
    g.setAttribute('position', new Float32BufferAttribute([0, 0, 0, 0, 0, -1], 3));
    this.line = new Line(g, new LineBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.8 }));
    this.line.name = 'pointer ray';
    this.line.scale.z = RAY_LENGTH;
    this.dot = new Mesh(new SphereGeometry(0.012, 12, 8), new MeshBasicMaterial({ color: 0xffffff }));
    this.dot.visible = false;
    this.ray.add(this.line, this.dot);

    this.ray.addEventListener('connected', (e) => {
      this.source = e.data;
      this.ray.visible = this.grip.visible = e.data.targetRayMode === 'tracked-pointer';
    });
    this.ray.addEventListener('disconnected', () => {
      this.source = null;
      this.events.length = 0;
    });
    for (const type of ['selectstart', 'selectend', 'squeezestart']) this.ray.addEventListener(type, () => this.events.push(type));
  }

  get connected() { return this.source !== null && this.source.targetRayMode === 'tracked-pointer'; }
  get handedness() { return this.source?.handedness ?? 'none'; }

  /** The pointer ray in room coordinates (a new three.js Ray, or `out`). */
  worldRay(out = new Ray()) {
    this.ray.updateWorldMatrix(true, false);
    out.origin.setFromMatrixPosition(this.ray.matrixWorld);
    out.direction.set(0, 0, -1).transformDirection(this.ray.matrixWorld);
    return out;
  }

  /** The thumbstick (xr-standard axes 2 and 3; y < 0 is forward): { x, y }. */
  stick() {
    const a = this.source?.gamepad?.axes;
    return { x: a?.[2] ?? 0, y: a?.[3] ?? 0 };
  }

  /** A haptic pulse of `intensity` (0..1) for `ms` milliseconds, where the controller has an actuator. */
  pulse(intensity, ms) {
    this.source?.gamepad?.hapticActuators?.[0]?.pulse(intensity, ms);
  }

  /** Draw the ray `length` metres long (null: its full length, no dot) in `color`. */
  show(length, color) {
    this.line.scale.z = length ?? RAY_LENGTH;
    this.line.material.color.set(color);
    this.dot.visible = length !== null;
    if (this.dot.visible) this.dot.position.set(0, 0, -length);
    this.dot.material.color.set(color);
  }
}
