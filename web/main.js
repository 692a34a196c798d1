// The configurator page: composes the app (web/app/) around the placement seam. Every move, insert and delete goes
// through app/placement.js; the rest is view, input, commands and storage.
import { Box3, Vector3 } from 'three';
import wasmUrl from '../build/wasm/snug.wasm?url';
import { Snug } from '../wasm/snug.js';
import { catalogItems } from './catalog/furniture.js';
import { ornamentItems } from './catalog/ornaments.js';
import { loadOrnamentMeshes } from './catalog/ornament-meshes.js';
import { Viewport } from './app/viewport.js';
import { buildRoom, INTERIOR } from './app/room.js';
import { Placement } from './app/placement.js';
import { Catalog } from './app/catalog.js';
import { defaultRoom } from './app/default-room.js';
import { Selection } from './app/selection.js';
import { SelectionView } from './app/selection-view.js';
import { History } from './app/history.js';
import { Editor } from './app/editor.js';
import { Feedback } from './app/feedback.js';
import { InsertTool } from './app/insert-tool.js';
import { TurnGizmo } from './app/turn-gizmo.js';
import { BoxSelect } from './app/box-select.js';
import { PointerInput } from './app/input.js';
import { CatalogPanel } from './app/catalog-panel.js';
import { Toolbar } from './app/toolbar.js';
import { bindShortcuts } from './app/shortcuts.js';
import { Status } from './app/status.js';
import { Help } from './app/help.js';
import { Stats } from './app/stats.js';
import { Files } from './app/files.js';
import { HierarchyView } from './app/hierarchy-view.js';
import { Outliner } from './app/outliner.js';
import { Autosave, readAutosave, download } from './app/storage.js';

// Two threads when the page is cross-origin isolated (the server sends COOP/COEP, see vite.config.js): hierarchy
// builds then use the threaded module, which vite.config.js serves and ships unbundled in snug-mt/. Without
// isolation there is no SharedArrayBuffer, so one thread on the plain module.
function createSnug() {
  if (!globalThis.crossOriginIsolated) return Snug.create({ locateFile: () => wasmUrl });
  return Snug.create({ threads: 2, threadedModuleUrl: new URL('snug-mt/snug-mt.mjs', window.location.href).href });
}

export async function start() {
  const $ = (id) => document.getElementById(id);
  const status = new Status($('status'));
  const viewport = new Viewport($('viewport'));
  // The ornaments' meshes (the 48k dragon among them) load beside the core and join the catalog when they arrive;
  // the default room does without them, so a first visit does not wait for them.
  const ornaments = loadOrnamentMeshes();
  const snug = await createSnug();
  snug.warmUp(); // the first drag into a corner would otherwise compile what it reaches
  const catalog = new Catalog(catalogItems());
  catalog.addLater(ornaments.then(ornamentItems), (e) => status.error(`The ornaments could not be loaded: ${e.message}`));
  const placement = new Placement(snug, { root: viewport.scene, catalog, room: { interior: INTERIOR } });
  const room = buildRoom(placement, catalog);
  const roomBox = new Box3(new Vector3(INTERIOR.minX, 0, INTERIOR.minZ), new Vector3(INTERIOR.maxX, INTERIOR.height, INTERIOR.maxZ));
  // A portrait screen looks along the room's long side, so the room fills more of it.
  if (viewport.camera.aspect < 1) viewport.camera.position.set(9, 6.5, 0.8);
  viewport.frame(roomBox);
  viewport.addEventListener('render', () => room.fade(viewport.camera));
  placement.addEventListener('change', () => viewport.requestRender());

  const selection = new Selection(placement);
  new SelectionView(viewport, placement, selection);
  const history = new History();
  const absoluteWasmUrl = new URL(wasmUrl, window.location.href).href;
  const editor = new Editor({ placement, catalog, history, selection, status, snug, wasmUrl: absoluteWasmUrl });

  // The room the user left (autosaved in this browser), else the default room.
  const saved = await readAutosave().catch((e) => {
    status.error(`The autosaved room could not be read: ${e.message}`);
    return null;
  });
  const restored = saved !== null && await editor.openRoom(saved, { name: 'the autosaved room', asCommand: false });
  const startingRoom = () => defaultRoom(catalog, (id) => placement.surfacesOf(id));
  if (!restored) placement.restore(startingRoom());
  const autosave = new Autosave(() => editor.roomText(), { onError: (e) => status.error(`Autosave failed: ${e.message}`) });
  history.addEventListener('change', () => autosave.schedule());
  catalog.addEventListener('add', ({ item }) => { if (item.imported) autosave.schedule(); }); // kept with the room

  const feedback = new Feedback(viewport, placement);
  const insertTool = new InsertTool({ viewport, placement, feedback, editor, status, catalog });
  const boxSelect = new BoxSelect($('box-select'), viewport, placement);
  const gizmo = new TurnGizmo(viewport, placement, selection);
  const input = new PointerInput({ viewport, placement, selection, editor, feedback, boxSelect, insertTool, gizmo });
  const panel = new CatalogPanel($('catalog'), { catalog, insertTool });
  if (window.matchMedia('(max-width: 720px)').matches) panel.toggle(false);
  const help = new Help($('help'));
  const stats = new Stats($('stats'), { viewport, placement, snug });
  const files = new Files({ input: $('file-input'), dropZone: $('drop-zone'), viewport, editor, status, interior: INTERIOR });
  const hierarchy = new HierarchyView(viewport, placement);
  const outliner = new Outliner($('outliner'), { placement, selection, catalog, history });
  if (window.matchMedia('(max-width: 720px)').matches) outliner.toggle(false);

  // Changes to the room wait while a pointer gesture is under way (undo in the middle of a drag would undo the
  // step before it and leave the drag on stale poses).
  const idle = (fn) => () => { if (!input.state) fn(); };
  // R, Shift+R: the drag under way turns, else the selection (one undo step each).
  const turn = (sign) => {
    if (input.turn(sign) || input.state) return;
    const f = editor.turnSelected((sign * Math.PI) / 12);
    if (f) gizmo.learn(f.lead, f.turnAxis);
  };
  const actions = {
    undo: idle(() => history.undo()),
    redo: idle(() => history.redo()),
    delete: idle(() => editor.deleteSelected('drop')),
    deleteWithDependents: idle(() => editor.deleteSelected('with-dependents')),
    duplicate: idle(() => editor.duplicateSelected()),
    new: idle(() => editor.resetRoom(startingRoom())),
    turn: () => turn(1),
    turnBack: () => turn(-1),
    free: () => {
      input.free = !input.free;
      toolbar.pressed('free', input.free);
      status.info(input.free ? 'Free drags: objects leave their surface and land on the one under them when let go'
        : 'Drags keep objects on their surfaces (hold Alt for a free drag)');
    },
    open: () => files.open(),
    save: () => download('room.snug.json', editor.roomText()),
    exportGlb: async () => {
      const glb = await editor.roomGlb();
      if (glb) download('room.glb', glb, 'model/gltf-binary');
    },
    frame: () => {
      const box = new Box3();
      for (const id of selection.list()) box.expandByObject(placement.object(id));
      viewport.frame(box.isEmpty() ? roomBox : box);
    },
    stats: () => { stats.toggle(); toolbar.pressed('stats', stats.visible); },
    help: () => help.toggle(),
    catalog: () => panel.toggle(),
    outliner: () => outliner.toggle(),
    hierarchy: () => {
      const id = selection.list()[0] ?? input.lastDragged;
      if (id && placement.has(id)) hierarchy.step(id);
      else status.info('Select an object to see its collision hierarchy');
    },
    vr: () => app.xr.enter('vr').catch((e) => status.error(`Cannot enter VR: ${e.message}`)),
    ar: () => app.xr.enter('ar').catch((e) => status.error(`Cannot enter AR: ${e.message}`)),
    escape: () => {
      if (input.cancel()) return;
      if (insertTool.armed) return insertTool.arm(null);
      if (help.open) return help.close();
      selection.clear();
    },
  };
  const toolbar = new Toolbar($('toolbar'), actions);
  // A headset's controllers go through the same seam, selection, editor and undo stack (web/xr/). That code, with
  // three's controller models and their glTF loader, loads only where the browser offers a session.
  const xrModes = navigator.xr
    ? Promise.all(['immersive-vr', 'immersive-ar'].map((m) => navigator.xr.isSessionSupported(m).catch(() => false)))
    : Promise.resolve([false, false]);
  xrModes.then(async ([vr, ar]) => {
    if (!vr && !ar) return;
    const { XrSession } = await import('./xr/session.js');
    app.xr = new XrSession({
      viewport, placement, selection, editor, feedback, history, catalog, status, supported: { vr, ar },
      actions: { undo: actions.undo, redo: actions.redo, free: actions.free, isFree: () => input.free },
    });
    for (const [action, on] of [['vr', vr], ['ar', ar]]) document.querySelector(`[data-action="${action}"]`).hidden = !on;
    document.querySelector('[data-xr]').hidden = false;
  }).catch((e) => status.error(`WebXR is not available: ${e.message}`));
  bindShortcuts(actions);
  const refresh = () => toolbar.update({
    undo: history.canUndo, redo: history.canRedo, delete: selection.size > 0, duplicate: selection.size > 0,
    turn: selection.size > 0,
  });
  history.addEventListener('change', refresh);
  selection.addEventListener('change', refresh);
  refresh();

  const app = {
    snug, viewport, placement, catalog, selection, history, editor, feedback, insertTool, input, gizmo, panel, help,
    stats, files, hierarchy, outliner, autosave, xr: null, ready: false, readyMs: 0,
    /** Client coordinates of a world point (tests drive real pointer events with them). */
    screenOfWorld: (x, y, z) => viewport.screenOf({ x, y, z }),
  };
  viewport.addEventListener('firstframe', () => {
    // From here a drag works: objects are in the core, the input is bound and the room is on screen.
    app.readyMs = stats.readyMs = performance.mark('snug-first-drag-possible').startTime;
    app.ready = true;
    if ($('status').dataset.kind !== 'error') status.info(restored ? 'Your room is back as you left it' : 'Drag furniture, or add some from the catalog');
    panel.drawThumbnails();
  });
  // The page's drag path, compiled before the first grab needs it.
  placement.warmUp((f) => feedback.show(f));
  feedback.clear();
  viewport.start();
  window.snugApp = app;
  return app;
}
