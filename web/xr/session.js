// The configurator in a headset: Enter VR (and Enter AR where the browser offers it) start an immersive session on
// the page's own renderer, scene and placement seam. The room is in metres, so it is at real scale: in VR the user
// stands in it; in AR the trigger first stands it on a real surface (ar-place.js). Each headset frame runs the
// controllers (hands.js) before the scene is drawn. Leaving puts the desktop camera back where it was.
import { Vector3 } from 'three';
import { XRControllerModelFactory } from 'three/examples/jsm/webxr/XRControllerModelFactory.js';
import { XrController } from './controller.js';
import { XrGrab } from './grab.js';
import { XrInsert } from './insert.js';
import { XrPanel } from './panel.js';
import { XrOrigin } from './origin.js';
import { XrTeleport } from './teleport.js';
import { XrArPlace } from './ar-place.js';
import { XrHands } from './hands.js';

// Where a VR session puts the user: on the floor near the front wall, facing the room's middle (-z).
const START = new Vector3(0.4, 0, 2.2);
// The controller models: the local copy web/xr/vite-profiles.js serves beside the page.
const PROFILES = 'xr-profiles';

export class XrSession {
  constructor({ viewport, placement, selection, editor, feedback, history, catalog, status, supported, actions }) {
    Object.assign(this, { viewport, placement, history, status });
    const renderer = viewport.renderer;
    this.xr = renderer.xr;
    this.xr.enabled = true;
    this.xr.setReferenceSpaceType('local-floor');
    this.session = null;
    this.mode = null;
    this.supported = supported; // { vr, ar }: the modes the browser offers

    const models = new XRControllerModelFactory().setPath(PROFILES);
    this.controllers = [0, 1].map((i) => new XrController(this.xr, i, models));
    this.panel = new XrPanel({ catalog });
    for (const c of this.controllers) {
      viewport.scene.add(c.ray, c.grip);
      c.ray.addEventListener('connected', (e) => {
        if (e.data.handedness === 'left') c.ray.add(this.panel.mesh);
        if (this.session) this.arPlace.watch(this.session, e.data);
      });
    }
    this.origin = new XrOrigin(this.xr);
    this.grab = new XrGrab({ placement, selection, editor, feedback });
    this.insert = new XrInsert({ placement, editor, feedback, catalog });
    this.teleport = new XrTeleport({ placement, origin: this.origin, scene: viewport.scene });
    this.arPlace = new XrArPlace({ origin: this.origin, scene: viewport.scene });
    this.actions = {
      undo: actions.undo, redo: actions.redo, free: actions.free, isFree: actions.isFree,
      exit: () => this.exit(),
    };
    this.hands = new XrHands({
      controllers: this.controllers, grab: this.grab, insert: this.insert, panel: this.panel, teleport: this.teleport,
      arPlace: this.arPlace, placement, actions: this.actions, head: () => this.xr.getCamera().position,
    });
    viewport.addEventListener('xrframe', ({ frame }) => this._frame(frame));
    this.xr.addEventListener('sessionend', () => this._ended());
  }

  /** Enter 'vr' or 'ar' (from a button press: browsers ask for a user gesture). */
  async enter(mode) {
    if (this.session) return;
    const ar = mode === 'ar';
    const session = await navigator.xr.requestSession(ar ? 'immersive-ar' : 'immersive-vr', {
      requiredFeatures: ['local-floor'], optionalFeatures: ar ? ['hit-test'] : [],
    });
    const { camera, controls, scene } = this.viewport;
    this._desktop = { position: camera.position.clone(), quaternion: camera.quaternion.clone(), target: controls.target.clone(), background: scene.background };
    await this.xr.setSession(session);
    this.session = session;
    this.mode = mode;
    this.origin.begin(START, 0);
    this.grab.warmUp(); // before any message: a blocked turn would post one
    if (ar) {
      scene.background = null; // the headset's passthrough shows behind the room
      this.arPlace.begin();
      for (const c of this.controllers) if (c.source) this.arPlace.watch(session, c.source);
      this.status.info('Point at the floor or a table and pull the trigger to put the room there');
    } else {
      this.status.info('In VR: point and pull the trigger to grab; the catalog is on your left hand');
    }
  }

  /** Leave the session (the Exit button on the panel, or the page's). */
  async exit() {
    if (this.session) await this.session.end();
  }

  _frame(xrFrame) {
    this.arPlace.frame(xrFrame, this.xr.getReferenceSpace());
    this.hands.frame();
    this.panel.set({ armed: this.insert.armed, free: this.actions.isFree(), undo: this.history.canUndo, redo: this.history.canRedo });
  }

  _ended() {
    this.hands.end();
    this.arPlace.end();
    this.origin.end();
    const { camera, controls, scene } = this.viewport;
    camera.position.copy(this._desktop.position);
    camera.quaternion.copy(this._desktop.quaternion);
    controls.target.copy(this._desktop.target);
    scene.background = this._desktop.background;
    controls.update();
    this.session = this.mode = null;
    this.viewport.requestRender();
    this.status.info('Back on the screen');
  }
}
