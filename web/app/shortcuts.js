// Keyboard shortcuts (the help overlay lists them). Ctrl is Cmd on a Mac. Keys typed into a form field are left
// alone.
export const SHORTCUTS = [
  ['Ctrl+Z', 'undo'], ['Ctrl+Shift+Z', 'redo'], ['Ctrl+Y', 'redo'], ['Delete', 'delete'], ['Backspace', 'delete'],
  ['Ctrl+D', 'duplicate'], ['F', 'frame'], ['Ctrl+S', 'save'], ['Ctrl+O', 'open'], ['S', 'stats'], ['?', 'help'],
  ['C', 'catalog'], ['H', 'hierarchy'], ['Escape', 'escape'], ['R', 'turn'], ['Shift+R', 'turnBack'],
];

function chord(e) {
  const key = e.key.length === 1 && e.key !== '?' ? e.key.toUpperCase() : e.key;
  return `${e.ctrlKey || e.metaKey ? 'Ctrl+' : ''}${e.shiftKey && key !== '?' ? 'Shift+' : ''}${key}`;
}

export function bindShortcuts(actions) {
  const map = new Map(SHORTCUTS);
  window.addEventListener('keydown', (e) => {
    if (e.target.closest?.('input, textarea, select, [contenteditable]')) return;
    const action = map.get(chord(e));
    if (!action) return;
    e.preventDefault();
    actions[action]();
  });
}
