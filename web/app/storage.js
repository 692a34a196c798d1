// Where rooms are kept outside the page: an autosave in IndexedDB (restored on reload) and files the user
// downloads and opens.
const DB = 'snug';
const STORE = 'rooms';
const KEY = 'autosave';

function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function run(mode, fn) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** The autosaved room text, or null. */
export function readAutosave() { return run('readonly', (s) => s.get(KEY)).then((v) => v ?? null); }
export function writeAutosave(text) { return run('readwrite', (s) => s.put(text, KEY)); }

/**
 * Saves the room a moment after each change (changes in a burst are saved once). saved counts the writes done;
 * pending is true from a change until its write is stored. A failure goes to onError (the caller shows it).
 */
export class Autosave {
  constructor(getText, { delayMs = 400, onError = () => {} } = {}) {
    this.getText = getText;
    this.delayMs = delayMs;
    this.onError = onError;
    this.saved = 0;
    this.pending = false;
    this._timer = 0;
    this._writing = Promise.resolve();
  }

  schedule() {
    clearTimeout(this._timer);
    this.pending = true;
    this._timer = setTimeout(() => this.flush(), this.delayMs);
  }

  /** Write now (after any write under way); resolves when it is stored. */
  flush() {
    clearTimeout(this._timer);
    this._timer = 0;
    this.pending = true;
    const done = () => { if (!this._timer && this._writing === writing) this.pending = false; };
    const writing = this._writing.then(() => writeAutosave(this.getText())).then(
      () => { this.saved++; done(); },
      (e) => { done(); this.onError(e); },
    );
    this._writing = writing;
    return writing;
  }
}

/** Offer text as a file download. */
export function download(name, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
