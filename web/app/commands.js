// The commands the undo stack holds. Each keeps the records ({ id, item, pose, bindings }) it needs to go both ways
// and changes the room only through the placement seam.

/** Objects put into the room (insert, duplicate, drop of an import). */
export class InsertObjectsCommand {
  constructor(placement, records, name = 'Insert') {
    this.type = 'InsertObjects';
    this.name = name;
    this.placement = placement;
    this.records = records;
  }
  execute() { this.placement.insert(this.records); }
  undo() { this.placement.remove(this.records.map((r) => r.id)); }
}

/**
 * Objects deleted by the core's policy ('drop': what rested on them falls; 'with-dependents': it goes with them).
 * Undo puts the room back from the records of before: the deleted objects as they were, and what fell where it
 * stood, bound as it was (to the bit).
 */
export class RemoveObjectsCommand {
  constructor(placement, ids, policy = 'drop', name = 'Delete') {
    this.type = 'RemoveObjects';
    this.name = name;
    this.placement = placement;
    this.ids = ids;
    this.policy = policy;
    this.before = placement.snapshot();
    this.gone = [];
  }
  execute() { this.gone = this.placement.remove(this.ids, this.policy); }
  undo() {
    const gone = new Set(this.gone);
    this.placement.insert(this.before.filter((r) => gone.has(r.id)));
    this.placement.put(this.before.filter((r) => !gone.has(r.id)));
  }
}

/** A finished drag or turn: the records before and after of what changed. */
export class MoveObjectsCommand {
  constructor(placement, from, to, name = 'Move') {
    this.type = 'MoveObjects';
    this.name = name;
    this.placement = placement;
    this.from = from;
    this.to = to;
  }
  execute() { this.placement.put(this.to); }
  undo() { this.placement.put(this.from); }
}

/** The whole room replaced (a room file opened, the room reset): both sides are full snapshots. */
export class SetRoomCommand {
  constructor(placement, before, after, name = 'Open room') {
    this.type = 'SetRoom';
    this.name = name;
    this.placement = placement;
    this.before = before;
    this.after = after;
  }
  execute() { this.placement.restore(this.after); }
  undo() { this.placement.restore(this.before); }
}
