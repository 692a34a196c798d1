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

/** Objects taken out of the room; undo also binds what rested on them again. */
export class RemoveObjectsCommand {
  constructor(placement, ids, name = 'Delete') {
    this.type = 'RemoveObjects';
    this.name = name;
    this.placement = placement;
    this.records = ids.map((id) => placement.record(id));
    this.dependents = placement.dependents(ids).map((id) => placement.record(id));
  }
  execute() { this.placement.remove(this.records.map((r) => r.id)); }
  undo() {
    this.placement.insert(this.records);
    this.placement.put(this.dependents);
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
