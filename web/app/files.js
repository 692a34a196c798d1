// Files coming into the page: the Open button's file dialog and files dropped anywhere on the page. A room file
// (.json) opens as the room; a .glb or .gltf (with its files) becomes a catalog item, and one is put where it was
// dropped when that is over the floor.
import { isGltf } from './importer.js';

export class Files {
  constructor({ input, dropZone, viewport, editor, status, interior }) {
    Object.assign(this, { input, dropZone, viewport, editor, status, interior });
    this.busy = Promise.resolve();
    input.addEventListener('change', () => {
      const files = [...input.files];
      input.value = '';
      if (files.length) this.take(files, null);
    });
    let depth = 0; // dragenter/dragleave pairs over nested elements
    const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    window.addEventListener('dragenter', (e) => {
      if (!hasFiles(e)) return;
      depth++;
      this.dropZone.hidden = false;
    });
    window.addEventListener('dragleave', (e) => {
      if (hasFiles(e) && --depth <= 0) { depth = 0; this.dropZone.hidden = true; }
    });
    window.addEventListener('dragover', (e) => { if (hasFiles(e)) e.preventDefault(); });
    window.addEventListener('drop', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      this.dropZone.hidden = true;
      const over = this.viewport.contains(e.clientX, e.clientY);
      this.take([...e.dataTransfer.files], over ? this.viewport.ray(e.clientX, e.clientY) : null);
    });
  }

  /** Show the file dialog. */
  open() { this.input.click(); }

  /** Open or import files; `ray` is where they were dropped over the view (or null). Resolves when done. */
  take(files, ray) {
    this.busy = this.busy.then(async () => {
      const room = files.find((f) => /\.json$/i.test(f.name));
      if (room) await this.editor.openRoom(await room.text(), { name: room.name });
      else if (files.some((f) => isGltf(f.name))) await this.editor.importFiles(files, { ray, interior: this.interior });
      else this.status.error(`Cannot open ${files.map((f) => f.name).join(', ')}: a room file is .json, a model .glb or .gltf`);
    });
    return this.busy;
  }
}
