// The editor's operations, as the toolbar, the keys and the pointer call them: insert, delete, duplicate, the end of
// a drag, open and save a room, import a model. Each goes through the placement seam and lands on the undo stack
// as one command; a request the room cannot satisfy changes nothing and says why in the status line.
import { PlacementError } from './placement.js';
import { InsertObjectsCommand, MoveObjectsCommand, RemoveObjectsCommand, SetRoomCommand } from './commands.js';
import { readRoom, writeRoom, RoomFileError } from './room-file.js';
import { importGltf, makeImportedItem, ImportError } from './importer.js';
import { SnugError } from '../../wasm/snug.js';

// Errors the user caused or can act on (the core refusing a model is one): shown as they are. Anything else is a
// defect and is rethrown.
const expected = (e) => e instanceof PlacementError || e instanceof RoomFileError || e instanceof ImportError || e instanceof SnugError;

export class Editor {
  constructor({ placement, catalog, history, selection, status, snug, wasmUrl }) {
    Object.assign(this, { placement, catalog, history, selection, status, snug, wasmUrl });
  }

  _fail(what, e) {
    if (!expected(e)) throw e;
    this.status.error(`${what}: ${e.message}`);
    return null;
  }

  /**
   * Insert an object of catalog `item` where it lands for the pointer `ray` (on the offer under it, see
   * Placement.landing). Selects it. Returns its id, or null (the status line says why, unless quiet).
   */
  insert(item, { ray }, { quiet = false } = {}) {
    try {
      const record = { id: this.placement.newId(), item, ...this.placement.landing(item, { ray }) };
      this.history.execute(new InsertObjectsCommand(this.placement, [record], `Insert ${this.catalog.get(item).name}`));
      this.selection.set([record.id]);
      this.status.info(`${this.catalog.get(item).name} added`);
      return record.id;
    } catch (e) {
      if (quiet && e instanceof PlacementError) return null;
      return this._fail(`Cannot place the ${this.catalog.get(item).name.toLowerCase()}`, e);
    }
  }

  deleteSelected() {
    const ids = this.selection.list();
    if (!ids.length) return this.status.info('Select something to delete');
    this.history.execute(new RemoveObjectsCommand(this.placement, ids, ids.length === 1 ? 'Delete' : `Delete ${ids.length} objects`));
    this.status.info(ids.length === 1 ? 'Deleted' : `Deleted ${ids.length} objects`);
  }

  /**
   * A copy of each selected object beside it (same item, same turn), on what the original rests on, one
   * object-width to its right or the nearest free spot there; the copies become the selection. All or nothing.
   */
  duplicateSelected() {
    const ids = this.selection.list();
    if (!ids.length) return this.status.info('Select something to duplicate');
    const made = [];
    try {
      for (const id of ids) {
        const item = this.placement.itemOf(id);
        const [copy] = this.placement.insert([{ item, ...this.placement.landingBeside(id) }]);
        made.push(this.placement.record(copy));
      }
    } catch (e) {
      if (made.length) this.placement.remove(made.map((r) => r.id));
      return this._fail('Cannot duplicate', e);
    }
    this.history.record(new InsertObjectsCommand(this.placement, made, 'Duplicate'));
    this.selection.set(made.map((r) => r.id));
    this.status.info(made.length === 1 ? 'Duplicated' : `Duplicated ${made.length} objects`);
    return made.map((r) => r.id);
  }

  /**
   * Turn the selection by `angle` radians about the axis its lead may turn about (15 degree steps), as one undo
   * step; the status line says when it cannot turn or stopped at contact. Returns the drag's feedback.
   */
  turnSelected(angle) {
    const ids = this.selection.list();
    if (!ids.length) return this.status.info('Select something to turn');
    const drag = this.placement.beginDrag(ids, ids[0], this.placement.poseOf(ids[0]).slice(4));
    const feedback = drag.turn(angle);
    this.commitMove(drag.end(), 'Turn');
    this.explainTurn(feedback);
    return feedback;
  }

  /** Say why a turn did not go as asked (locked by what the object rests on, or stopped at contact). */
  explainTurn(feedback) {
    if (!feedback) return;
    const name = this.catalog.get(this.placement.itemOf(feedback.lead)).name.toLowerCase();
    if (feedback.reasons.includes('turn-locked')) {
      this.status.info(`The ${name} cannot turn where it stands (it rests on two surfaces or must stay upright); Alt+drag frees it`);
    } else if (feedback.reasons.includes('turn-blocked')) {
      this.status.info(`The ${name} stopped turning where it touches something`);
    }
  }

  /** A drag ended (drag.end() of the seam): one undo step, unless nothing changed; a free drag that let go over
   * nothing went back, and the status line says so. */
  commitMove(done, name = 'Move') {
    if (!done) return;
    if (done.cancelled) {
      this.status.info('Nothing there to put it on: it went back (drop it over a surface it fits)');
      return;
    }
    if (done.from.length) this.history.record(new MoveObjectsCommand(this.placement, done.from, done.to, name));
  }

  // ---------------------------------------------------------------- rooms
  /** The room as a room file's text (the objects and every imported item of the catalog). */
  roomText() {
    const imported = this.catalog.items().filter((it) => it.imported).map((it) => it.source);
    return writeRoom(this.placement.snapshot(), imported);
  }

  /**
   * Open a room file's text: checked, then the room replaced in one undoable step. A bad file changes nothing
   * (imported items it brought are taken out of the catalog again). asCommand false: no undo step (the autosave
   * restored on load). Returns whether it opened.
   */
  async openRoom(text, { name = 'the room file', asCommand = true } = {}) {
    const added = [];
    try {
      await this.catalog.loaded; // a room may hold items that arrive late
      const { records, imported } = readRoom(text, (id) => this.catalog.has(id));
      for (const source of imported) {
        if (this.catalog.has(source.id)) continue;
        const item = await makeImportedItem(source, { snug: this.snug, wasmUrl: this.wasmUrl, onProgress: (l, f) => this.status.progress(l, f) });
        this.catalog.addImported(item);
        added.push(source.id);
      }
      if (asCommand) this.history.execute(new SetRoomCommand(this.placement, this.placement.snapshot(), records));
      else this.placement.restore(records);
      this.selection.clear();
      this.status.info(`Opened ${name}: ${records.length} objects`);
      return true;
    } catch (e) {
      for (const id of added) this.catalog.removeImported(id);
      this._fail(`Cannot open ${name}`, e);
      return false;
    }
  }

  /** Replace the room by `records` (the default room) in one undoable step. */
  resetRoom(records, name = 'New room') {
    this.history.execute(new SetRoomCommand(this.placement, this.placement.snapshot(), records, name));
    this.selection.clear();
    this.status.info('A new room');
  }

  // ---------------------------------------------------------------- import
  /**
   * Import dropped glTF files as a catalog item; when dropped over the floor (`ray`), also put one in the room
   * there. Returns the item id or null.
   */
  async importFiles(files, { ray = null, interior }) {
    try {
      const def = await importGltf(files, {
        snug: this.snug, wasmUrl: this.wasmUrl, interior, onProgress: (label, f) => this.status.progress(label, f),
      });
      const item = this.catalog.addImported(def);
      if (!ray || !this.insert(item.id, { ray }, { quiet: true })) this.status.info(`${item.name} is in the catalog`);
      return item.id;
    } catch (e) {
      return this._fail('Cannot import', e);
    }
  }
}
