import { describe, expect, it } from 'vitest';
import { FileChecks } from '../../../src/slack/files/file-checks.js';

describe('one file check at a time per person', () => {
  it("refuses a second check of the same person until the first gives its slot back, and never someone else's", () => {
    const checks = new FileChecks();
    const first = checks.take('U1');
    expect(first).toBeTypeOf('function');
    expect(checks.take('U1')).toBeUndefined();
    const other = checks.take('U2');
    expect(other).toBeTypeOf('function');
    first!();
    // Giving it back twice does not free a slot taken since.
    const again = checks.take('U1');
    first!();
    expect(checks.take('U1')).toBeUndefined();
    again!();
    other!();
    expect(checks.take('U1')).toBeTypeOf('function');
  });
});
