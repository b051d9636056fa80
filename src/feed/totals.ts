/** Per-currency totals of a batch of entries, in exact minor units, credits and debits apart. */
import type { Transaction } from '../fleet/schemas.js';
import { toMinor } from '../core/money.js';

export interface CurrencyTotals {
  currency: string;
  creditCount: number;
  creditMinor: number;
  debitCount: number;
  /** Negative or zero. */
  debitMinor: number;
  netMinor: number;
}

/** Totals per currency, in the order currencies first appear in `entries`. */
export function totalsByCurrency(entries: readonly Transaction[]): CurrencyTotals[] {
  const totals = new Map<string, CurrencyTotals>();
  for (const tx of entries) {
    let row = totals.get(tx.currency);
    if (!row) {
      row = { currency: tx.currency, creditCount: 0, creditMinor: 0, debitCount: 0, debitMinor: 0, netMinor: 0 };
      totals.set(tx.currency, row);
    }
    const minor = toMinor(tx.amount, tx.currency);
    if (minor < 0) {
      row.debitCount += 1;
      row.debitMinor += minor;
    } else {
      row.creditCount += 1;
      row.creditMinor += minor;
    }
    row.netMinor += minor;
  }
  return [...totals.values()];
}
