import { describe, expect, it } from 'vitest';
import { createTransactionScope } from '../../src/store/transaction-scope.js';

const INSIDE = /inside a transaction: use the tx/;

describe('the transaction scope', () => {
  it('refuses a query from inside the work, and allows one outside it, before and after', async () => {
    const scope = createTransactionScope();
    expect(() => scope.assertOutside()).not.toThrow();
    await expect(
      scope.run(async () => {
        await Promise.resolve();
        scope.assertOutside();
      }),
    ).rejects.toThrow(INSIDE);
    expect(() => scope.assertOutside()).not.toThrow();
  });

  it('still refuses inside a transaction that starts after an earlier one ended', async () => {
    const scope = createTransactionScope();
    await scope.run(async () => 1);
    await expect(
      scope.run(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        scope.assertOutside();
      }),
    ).rejects.toThrow(INSIDE);
  });

  it('still refuses inside a transaction when another one running beside it has ended', async () => {
    const scope = createTransactionScope();
    let finishLong: () => void = () => undefined;
    const long = scope.run(async () => {
      await new Promise<void>((resolve) => {
        finishLong = resolve;
      });
      await new Promise((resolve) => setTimeout(resolve, 1));
      scope.assertOutside();
    });
    await scope.run(async () => 1);
    finishLong();
    await expect(long).rejects.toThrow(INSIDE);
  });

  it('allows a query from a callback the work left behind, once the work is over', async () => {
    const scope = createTransactionScope();
    let later: Promise<void> = Promise.resolve();
    await scope.run(async () => {
      later = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => scope.assertOutside());
    });
    await expect(later).resolves.toBeUndefined();
  });

  it("keeps two databases' scopes apart", async () => {
    const first = createTransactionScope();
    const second = createTransactionScope();
    await first.run(async () => {
      expect(() => second.assertOutside()).not.toThrow();
      await second.run(async () => 1);
      expect(() => first.assertOutside()).toThrow(INSIDE);
    });
  });
});
