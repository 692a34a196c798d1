// The toolbar: each button names an action (data-action) and is enabled only when the action can do something
// (undo with an undo step, delete with a selection).
export class Toolbar {
  constructor(root, actions) {
    this.root = root;
    root.addEventListener('click', (e) => {
      const button = e.target.closest('button[data-action]');
      if (button && !button.disabled) actions[button.dataset.action]();
    });
  }

  /** enabled: { action: boolean } for the buttons whose state changes. */
  update(enabled) {
    for (const [action, on] of Object.entries(enabled)) {
      const b = this.root.querySelector(`button[data-action="${action}"]`);
      if (b) b.disabled = !on;
    }
  }

  /** Show a toggle button as pressed. */
  pressed(action, on) {
    this.root.querySelector(`button[data-action="${action}"]`)?.setAttribute('aria-pressed', String(on));
  }
}
