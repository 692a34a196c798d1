// The catalog panel: the items by category, each a tile with its thumbnail (rendered by the app, once). A click
// arms the insert tool, a drag carries the item into the room; imported models appear as they arrive. On a phone
// the panel is a strip along the bottom that collapses.
import { Thumbnails } from './thumbnails.js';

export class CatalogPanel {
  constructor(root, { catalog, insertTool }) {
    Object.assign(this, { root, catalog, insertTool });
    this.list = root.querySelector('.catalog-list');
    this.thumbnails = new Thumbnails();
    this._tiles = new Map();
    this._thumbsOn = false;
    for (const item of catalog.insertable()) this._tile(item);
    catalog.addEventListener('add', ({ item }) => this._tile(item));
    catalog.addEventListener('remove', ({ item }) => {
      this._tiles.get(item.id)?.remove();
      this._tiles.delete(item.id);
    });
    insertTool.addEventListener('change', ({ item }) => {
      for (const [id, tile] of this._tiles) tile.classList.toggle('armed', id === item);
    });
    root.querySelector('.catalog-toggle').addEventListener('click', () => this.toggle());
  }

  toggle(open = this.root.classList.contains('collapsed')) {
    this.root.classList.toggle('collapsed', !open);
    this.root.querySelector('.catalog-toggle').setAttribute('aria-expanded', String(open));
  }

  /** Start drawing the thumbnails (after the first frame, so they never delay the first drag). */
  drawThumbnails() {
    this._thumbsOn = true;
    for (const [id, tile] of this._tiles) this.thumbnails.request(this.catalog.prototype(id), tile.querySelector('canvas'));
  }

  _section(category) {
    let section = this.list.querySelector(`section[data-category="${CSS.escape(category)}"]`);
    if (!section) {
      section = document.createElement('section');
      section.dataset.category = category;
      section.innerHTML = `<h3></h3><div class="tiles"></div>`;
      section.querySelector('h3').textContent = category;
      this.list.append(section);
    }
    return section.querySelector('.tiles');
  }

  _tile(item) {
    const tile = document.createElement('button');
    tile.className = 'tile';
    tile.type = 'button';
    tile.dataset.item = item.id;
    tile.title = `${item.name}: click, then click in the room, or drag it into the room`;
    tile.innerHTML = '<canvas width="1" height="1"></canvas><span></span>';
    tile.querySelector('span').textContent = item.name;
    tile.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      ev.preventDefault();
      this.insertTool.pressTile(item.id, ev, tile);
    });
    // Keyboard users arm the tool with Enter or Space (pointer clicks arm it in pressTile).
    tile.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); this.insertTool.arm(item.id); }
    });
    this._section(item.category).append(tile);
    this._tiles.set(item.id, tile);
    if (this._thumbsOn) this.thumbnails.request(this.catalog.prototype(item.id), tile.querySelector('canvas'));
  }
}
