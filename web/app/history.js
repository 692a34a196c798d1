// The undo stack, in the style of the three.js editor's History: every change to the room is a command with
// execute() and undo(); running one clears the redo list. The commands go through the placement seam, so the
// core's transactions (issue 18) can back them later without changing this file.
import { EventDispatcher } from 'three';

export class History extends EventDispatcher {
  constructor() {
    super();
    this.undos = [];
    this.redos = [];
  }

  get canUndo() { return this.undos.length > 0; }
  get canRedo() { return this.redos.length > 0; }

  /** Run a command and record it. A command that throws is not recorded (and must have changed nothing). */
  execute(command) {
    command.execute();
    this.undos.push(command);
    this.redos.length = 0;
    this._changed('execute', command);
  }

  /** Record a command whose change is already in the room (a drag moved the objects live). */
  record(command) {
    this.undos.push(command);
    this.redos.length = 0;
    this._changed('execute', command);
  }

  undo() {
    const command = this.undos.pop();
    if (!command) return null;
    command.undo();
    this.redos.push(command);
    this._changed('undo', command);
    return command;
  }

  redo() {
    const command = this.redos.pop();
    if (!command) return null;
    command.execute();
    this.undos.push(command);
    this._changed('redo', command);
    return command;
  }

  _changed(kind, command) { this.dispatchEvent({ type: 'change', kind, command }); }
}
