/**
 * One file check at a time per person (a bulk payout file or a records file): reading, parsing and
 * matching a file takes the replica's time and memory, so a person who submits another file while
 * the first is still being checked is told to wait for its result instead.
 */
export class FileChecks {
  private readonly checking = new Set<string>();

  /** Takes `userId`'s one slot: the function that gives it back, or undefined when a check of theirs is under way. */
  take(userId: string): (() => void) | undefined {
    if (this.checking.has(userId)) return undefined;
    this.checking.add(userId);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.checking.delete(userId);
    };
  }
}
