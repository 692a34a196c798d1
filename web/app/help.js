// The help overlay: gestures and keys, opened from the toolbar or with ?, closed with its button, Escape or a
// click beside it.
export class Help {
  constructor(root) {
    this.root = root;
    root.querySelector('[data-close]').addEventListener('click', () => this.close());
    root.addEventListener('click', (e) => { if (e.target === root) this.close(); });
  }
  get open() { return !this.root.hidden; }
  show() { this.root.hidden = false; this.root.querySelector('[data-close]').focus(); }
  close() { this.root.hidden = true; }
  toggle() { if (this.open) this.close(); else this.show(); }
}
