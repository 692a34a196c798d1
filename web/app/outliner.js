// The outliner: the binding graph as a tree, what stands on what (a lamp under the table it stands on), read from
// the core after every change; a click on a line selects the object (shift-click adds or takes out), and what the
// core's consistency check finds wrong is marked on the objects concerned.
const SHELL_NAMES = { floor: 'Floor', 'wall-back': 'Back wall', 'wall-front': 'Front wall', 'wall-left': 'Left wall', 'wall-right': 'Right wall' };

export class Outliner {
  constructor(root, { placement, selection, catalog, history }) {
    Object.assign(this, { root, placement, selection, catalog });
    this.tree = root.querySelector('.outliner-tree');
    this._pending = false;
    this.tree.addEventListener('click', (e) => {
      const line = e.target.closest('[data-id]');
      if (!line || !placement.has(line.dataset.id)) return;
      if (e.shiftKey) selection.toggle(line.dataset.id);
      else selection.set([line.dataset.id]);
    });
    root.querySelector('.outliner-toggle').addEventListener('click', () => this.toggle());
    // The structure changes with inserts, deletes and the end of each drag (an undo step); not per drag event.
    placement.addEventListener('change', (e) => { if (e.kind !== 'move') this.refresh(); });
    history.addEventListener('change', () => this.refresh());
    selection.addEventListener('change', () => this._marks());
    this.refresh();
  }

  get open() { return !this.root.classList.contains('collapsed'); }

  toggle(open = !this.open) {
    this.root.classList.toggle('collapsed', !open);
    this.root.querySelector('.outliner-toggle').setAttribute('aria-expanded', String(open));
  }

  /** Draw the tree again at the next frame (several changes in one task draw once). */
  refresh() {
    if (this._pending) return;
    this._pending = true;
    requestAnimationFrame(() => { this._pending = false; this.draw(); });
  }

  /** Draw the tree now. */
  draw() {
    const nodes = this.placement.graph();
    const problems = new Map();
    for (const v of this.placement.violations()) for (const id of v.ids) problems.set(id, [...(problems.get(id) ?? []), v.message]);
    const children = new Map();
    for (const n of nodes) {
      if (!children.has(n.parent)) children.set(n.parent, []);
      children.get(n.parent).push(n);
    }
    const name = (id) => SHELL_NAMES[id] ?? this.catalog.get(this.placement.itemOf(id)).name;
    const list = (parent) => {
      const ul = document.createElement('ul');
      for (const n of children.get(parent) ?? []) {
        const li = document.createElement('li');
        const line = document.createElement('div');
        line.className = 'line';
        line.dataset.id = n.id;
        if (n.item === null) line.classList.add('shell');
        line.textContent = name(n.id);
        if (n.also.length) {
          const also = document.createElement('small');
          also.textContent = ` also on ${n.also.map(name).join(', ').toLowerCase()}`;
          line.append(also);
        }
        if (problems.has(n.id)) {
          line.classList.add('bad');
          line.title = problems.get(n.id).join('\n');
          const mark = document.createElement('b');
          mark.textContent = ' !';
          line.append(mark);
        }
        li.append(line);
        if (children.has(n.id)) li.append(list(n.id));
        ul.append(li);
      }
      return ul;
    };
    this.tree.replaceChildren(list(null));
    this._marks();
  }

  _marks() {
    for (const line of this.tree.querySelectorAll('[data-id]')) line.classList.toggle('selected', this.selection.has(line.dataset.id));
  }
}
