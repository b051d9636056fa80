/**
 * The sandbox's fleet account: a newest-first transaction list and balances in exact minor units that
 * are always the sum of that list per currency (the opening balance is the account's first entry), so
 * every figure the app shows can be checked by hand; plus a seeded generator of believable
 * Kinshasa-flavoured activity to fill them.
 */
import { currencyDecimals, fromMinor, toMinor } from '../core/money.js';
import type { Transaction } from '../fleet/schemas.js';

/** mulberry32: small, fast and good enough for fake data; the same seed gives the same account. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHANUMERIC = [...'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'];
const PHONE_PREFIXES = ['81', '82', '83', '84', '85', '89', '90', '97', '98', '99'];
const BANKS = ['Rawbank', 'Equity BCDC', 'TMB', 'Ecobank', 'Access Bank', 'FBNBank'];
const MERCHANTS = [
  'Shoprite Kinshasa',
  'Kin Marché',
  'TotalEnergies Gombe',
  'City Market',
  'Air Congo',
  'Hôtel Memling',
  'Peloustore',
  'Vodacom Shop Limete',
  'Amazon Web Services',
  'Netflix.com',
  'Google *Ads',
  'Uber *Trip',
  'Pharmacie du Boulevard',
  'Kinshasa Airport Duty Free',
];
// Characters that Slack mrkdwn treats specially, so the app's escaping is exercised by real-looking data.
const MERCHANTS_NEEDING_ESCAPES = ['Hasson & Frères', 'Marks & Spencer', 'Café <Lisanga>', 'Bar > Restaurant Chez Ntemba'];
// Typical sizes in major units of USD; other currencies are scaled from it.
const CURRENCY_SCALE: Record<string, number> = { USD: 1, EUR: 0.92, CDF: 2850 };
const CURRENCY_WEIGHT: Record<string, number> = { USD: 6, CDF: 3, EUR: 1 };
const STARTING_BALANCE_USD: [number, number] = [150_000, 260_000];

export type TransactionKind = 'PAYMENT' | 'B2B_JIT_FUNDING';

export interface GeneratorContext {
  random: () => number;
  currencies: string[];
  operators: string[];
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function digits(random: () => number, count: number): string {
  let text = '';
  for (let index = 0; index < count; index++) text += Math.floor(random() * 10).toString();
  return text;
}

export function randomCode(random: () => number, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) text += pick(random, ALPHANUMERIC);
  return text;
}

function randomPhone(random: () => number): string {
  return `243${pick(random, PHONE_PREFIXES)}${digits(random, 7)}`;
}

function pickCurrency(context: GeneratorContext): string {
  const weights = context.currencies.map((currency) => CURRENCY_WEIGHT[currency] ?? 1);
  let roll = context.random() * weights.reduce((sum, weight) => sum + weight, 0);
  for (const [index, currency] of context.currencies.entries()) {
    roll -= weights[index] ?? 1;
    if (roll < 0) return currency;
  }
  return pick(context.random, context.currencies);
}

/** A random amount in minor units, roughly `usdMin`–`usdMax` USD worth, rounded like a person would. */
function randomMinor(random: () => number, currency: string, usdMin: number, usdMax: number): number {
  const scale = CURRENCY_SCALE[currency] ?? 1;
  const major = (usdMin + random() * random() * (usdMax - usdMin)) * scale;
  // Francs move in whole hundreds; hard currencies keep their cents.
  const rounded = scale >= 100 ? Math.round(major / 100) * 100 : major;
  return Math.max(1, toMinor(rounded, currency));
}

function describePayment(context: GeneratorContext, style: number): string {
  const { random } = context;
  switch (style) {
    case 0:
      return `Payout to mobile money ${randomPhone(random)}`;
    case 1:
      return `Wallet withdrawal via ${pick(random, context.operators)} to ${randomPhone(random)}`;
    case 2:
      return `Wallet withdrawal to ${pick(random, BANKS)} account ••${digits(random, 4)}`;
    default:
      return `Order settlement ORD-${digits(random, 6)}`;
  }
}

/** One random transaction at `date`. Purchases at `sequence` 5, 28, 51… are at merchants whose names need mrkdwn escaping. */
export function generateTransaction(context: GeneratorContext, date: Date, sequence: number, kind?: TransactionKind): Transaction {
  const { random } = context;
  const type = kind ?? (random() < 0.45 ? 'PAYMENT' : 'B2B_JIT_FUNDING');
  const currency = pickCurrency(context);
  if (type === 'PAYMENT') {
    return {
      reference: `TXN-${randomCode(random, 10)}`,
      type,
      amount: fromMinor(randomMinor(random, currency, 5, 2500), currency),
      currency,
      description: describePayment(context, Math.floor(random() * 4)),
      date: date.toISOString(),
      status: 'Completed',
    };
  }
  const merchant = sequence % 23 === 5 ? pick(random, MERCHANTS_NEEDING_ESCAPES) : pick(random, MERCHANTS);
  return {
    reference: `JIT-${randomCode(random, 10)}`,
    type,
    amount: fromMinor(-randomMinor(random, currency, 2, 900), currency),
    currency,
    description: `Card purchase funding — ${merchant}`,
    date: date.toISOString(),
    status: 'Completed',
  };
}

interface Entry {
  transaction: Transaction;
  time: number;
  sequence: number;
}

/**
 * Balances and transactions kept consistent: each currency's balance starts at zero and every
 * transaction added moves it, so a balance is the sum of its currency's transactions.
 */
export class SandboxLedger {
  private readonly balancesMinor = new Map<string, number>();
  private entries: Entry[] = [];
  private readonly references = new Set<string>();
  private nextSequence = 0;

  constructor(currencies: readonly string[]) {
    for (const currency of currencies) this.balancesMinor.set(currency, 0);
  }

  balances(): Record<string, number> {
    return Object.fromEntries([...this.balancesMinor].map(([currency, minor]) => [currency, fromMinor(minor, currency)]));
  }

  /** Newest first; equal timestamps keep the later addition first. A copy. */
  transactions(): Transaction[] {
    return this.entries.map((entry) => ({ ...entry.transaction }));
  }

  get size(): number {
    return this.entries.length;
  }

  hasReference(reference: string): boolean {
    return this.references.has(reference);
  }

  /**
   * Puts an entry the real API should never send (fields replaced by `broken`, e.g. a text amount)
   * into the list, leaving the balances alone: for tests of how the app reads a damaged page (the one
   * kind of entry the balance does not sum).
   */
  addMalformed(transaction: Transaction, broken: Record<string, unknown>): void {
    // Typed as a Transaction only to share the list; its fields are whatever `broken` says.
    const damaged: Transaction = { ...transaction, ...broken };
    const entry = { transaction: damaged, time: Date.parse(transaction.date), sequence: this.nextSequence++ };
    const at = this.entries.findIndex((other) => other.time < entry.time || (other.time === entry.time && other.sequence < entry.sequence));
    if (at === -1) this.entries.push(entry);
    else this.entries.splice(at, 0, entry);
  }

  add(transaction: Transaction): Transaction {
    const copy = { ...transaction };
    const entry = { transaction: copy, time: Date.parse(copy.date), sequence: this.nextSequence++ };
    // Most additions are the newest, so insert at the first entry that is older than this one.
    const at = this.entries.findIndex((other) => other.time < entry.time || (other.time === entry.time && other.sequence < entry.sequence));
    if (at === -1) this.entries.push(entry);
    else this.entries.splice(at, 0, entry);
    this.references.add(copy.reference);
    const current = this.balancesMinor.get(copy.currency) ?? 0;
    this.balancesMinor.set(copy.currency, current + toMinor(copy.amount, copy.currency));
    return { ...copy };
  }
}

/**
 * `count` transactions over the four weeks before `now`: the oldest, one per currency, credits the
 * account's opening balance (CDF in the hundreds of millions); the rest is random activity.
 */
export function seedLedger(context: GeneratorContext, now: Date, count: number): SandboxLedger {
  const { random } = context;
  const openings = new Map<string, number>();
  for (const currency of context.currencies) {
    const [low, high] = STARTING_BALANCE_USD;
    const scale = CURRENCY_SCALE[currency] ?? 1;
    const major = (low + random() * (high - low)) * scale * (currency === 'EUR' ? 0.3 : 1);
    const cents = currencyDecimals(currency) > 0 ? Math.floor(random() * 100) / 100 : 0;
    openings.set(currency, toMinor(Math.floor(major) + cents, currency));
  }
  const ledger = new SandboxLedger(context.currencies);
  const windowMs = 28 * 24 * 60 * 60 * 1000;
  const times = Array.from({ length: count }, () => now.getTime() - Math.floor(random() * windowMs)).sort((a, b) => a - b);
  const openingOrder = [...openings];
  for (const [sequence, time] of times.entries()) {
    const opening = openingOrder[sequence];
    ledger.add(
      uniqueTransaction(ledger, () =>
        opening ? openingTransaction(context, new Date(time), opening[0], opening[1]) : generateTransaction(context, new Date(time), sequence),
      ),
    );
  }
  return ledger;
}

/** The credit that opens a currency's balance: a funding of the fleet account from the platform's wallet. */
function openingTransaction(context: GeneratorContext, date: Date, currency: string, minor: number): Transaction {
  return {
    reference: `TXN-${randomCode(context.random, 10)}`,
    type: 'PAYMENT',
    amount: fromMinor(minor, currency),
    currency,
    description: 'Opening balance: funding of the fleet account from the platform wallet',
    date: date.toISOString(),
    status: 'Completed',
  };
}

/** Regenerates on the (unlikely) reuse of a reference, so references stay unique in the account. */
export function uniqueTransaction(ledger: SandboxLedger, make: () => Transaction): Transaction {
  for (;;) {
    const transaction = make();
    if (!ledger.hasReference(transaction.reference)) return transaction;
  }
}
