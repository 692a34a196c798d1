// The status line: what just happened, what went wrong (in red, until the next message), and a progress bar for
// work that takes a while (an import building its hierarchy in a worker).
export class Status {
  constructor(root) {
    this.root = root;
    this.text = root.querySelector('.status-text');
    this.bar = root.querySelector('progress');
    this._timer = 0;
  }

  _show(text, kind, keepMs) {
    clearTimeout(this._timer);
    this.text.textContent = text;
    this.root.dataset.kind = kind;
    this.root.hidden = false;
    this.bar.hidden = kind !== 'progress';
    if (keepMs) this._timer = setTimeout(() => { this.root.hidden = true; }, keepMs);
  }

  info(text) { this._show(text, 'info', 3500); }
  error(text) { this._show(text, 'error', 0); }

  /** Work under way: label and fraction done (0..1); at 1 the bar goes after a moment. */
  progress(label, fraction) {
    this._show(label, 'progress', fraction >= 1 ? 2500 : 0);
    this.bar.value = Math.max(0, Math.min(1, fraction));
  }
}
