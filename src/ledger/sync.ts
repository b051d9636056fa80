/**
 * Keeps the ledger in step with the Fleet API's newest-first list, on the one replica that holds
 * the `ledger-sync` lease:
 * - a poll reads a page of the newest 100 entries, and further pages while a page ends with an
 *   entry not stored yet;
 * - the history walk reads the whole list once, 100 at a time, paced, resuming at its stored offset
 *   after a restart;
 * - a sweep reads the recent pages again, and a re-walk the whole list (every `rewalkHours`), to find
 *   entries that showed up with a date older than entries already stored (stored as late).
 * Entries arriving at the top while a walk goes on push the rest of the list down, so a walk by
 * offset sees some entries twice and never misses one; identity (identity.ts) keeps them once.
 * It is the one reader of the API's list: a follower (the live feed) that wants the newest entries
 * more often shortens the poll interval to its own, and is told when a poll stored new entries.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { FleetApi, TransactionListPage } from '../fleet/schemas.js';
import type { Logger } from '../core/logger.js';
import type { Db, Queryable } from '../store/db.js';
import { releaseLease, tryAcquireLease } from '../store/leases.js';
import { identifyPage, trailingSameMillisecond, type IdentifiedEntry } from './identity.js';
import { storedEntriesSince, type StoredListedEntry } from './ledger-listing.js';
import { StoredLedgerReader } from './reader.js';
import type { LedgerSettings } from './settings.js';
import { insertEntries, readSyncState, updateSyncState, type InsertedEntry, type SyncState } from './store.js';
import { EventLoopTurns, type BackgroundTurns } from '../runtime/turns.js';

const LEDGER_LEASE = 'ledger-sync';
export const PAGE_SIZE = 100;
/** Entries stored per statement: on the embedded store a statement runs on the main thread, so a burst of new entries is stored a slice at a time. */
const INSERT_SLICE = 100;

/**
 * `insertEntries` a slice at a time, oldest slice first (entries come newest first, as the API lists
 * them), letting the event loop run between slices. Insertion order and lateness are as one call's:
 * each slice is newer than those stored before it; a stop half-way leaves the oldest stored, which
 * the next poll reads past as known.
 */
async function insertInSlices(
  turns: BackgroundTurns,
  db: Queryable,
  newestFirstEntries: readonly IdentifiedEntry[],
  options: Parameters<typeof insertEntries>[2],
): Promise<InsertedEntry[]> {
  const stored: InsertedEntry[] = [];
  for (let end = newestFirstEntries.length; end > 0; end -= INSERT_SLICE) {
    stored.unshift(...(await insertEntries(db, newestFirstEntries.slice(Math.max(0, end - INSERT_SLICE), end), options)));
    if (end > INSERT_SLICE) await turns.nextBackgroundTurn();
  }
  return stored;
}

/** Pages the sweep reads again from the top, at least. */
const SWEEP_PAGES = 3;
/** It reads on (at most SWEEP_MAX_PAGES) while entries are dated after its last run less this: what an API may list late. */
export const SWEEP_LATENESS_MS = 5 * 60_000;
const SWEEP_MAX_PAGES = 30;
/**
 * PGlite has no autovacuum: after this many new entries (and when a walk completes) the sync vacuums
 * the ledger and its word table, so that the list's counts stay index-only scans (the visibility map
 * marks the new pages).
 */
const ENTRIES_PER_VACUUM = 5_000;

export interface LedgerSyncOptions {
  fleet: FleetApi;
  db: Db;
  clock: Clock;
  settings: LedgerSettings;
  logger: Logger;
  /** Who holds the lease; unique per process by default. */
  instanceId?: string;
  /** Called with the entries each poll, sweep or walk stored (oldest first), after they are stored. */
  onStored?: (entries: InsertedEntry[], source: SyncSource) => void | Promise<void>;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

export type SyncSource = 'poll' | 'sweep' | 'history' | 'rewalk';

export interface SyncReport {
  source: SyncSource;
  /** Entries stored by this step, in insertion order (oldest first for polls and sweeps). */
  stored: InsertedEntry[];
  fleetRequests: number;
  /** For walks: true when this page was the list's last. */
  walkComplete?: boolean;
}

/** Who reads the ledger's newest entries as they arrive (the live feed): how often it wants them, and its wake-up. */
export interface LedgerFollower {
  everyMs: number;
  onNewEntries: () => void;
}

export class LedgerSync {
  readonly reader: StoredLedgerReader;
  private readonly heavyDb: Db;
  private readonly instanceId: string;
  private readonly turns: BackgroundTurns;
  private readonly followers: LedgerFollower[] = [];
  /** Whether the last try for the lease took it: this replica is the one reading the API's list. */
  private leaseHeld = false;
  private nextPollAt = 0;
  private storedSinceVacuum = 0;
  private vacuumedSinceStart = false;
  private running: Promise<void> | undefined;
  private abort: AbortController | undefined;
  /** Requests made to the Fleet API since this sync was made (for the bench and logs). */
  fleetRequests = 0;

  constructor(private readonly options: LedgerSyncOptions) {
    // The reader answers interactions (/fleet tx); the sync's own writes and lease go through the heavy jobs' connections.
    this.reader = new StoredLedgerReader(options.db);
    this.heavyDb = options.db.forHeavyWork();
    this.instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.turns = options.turns ?? new EventLoopTurns();
  }

  /** Polls at least as often as every follower wants, so that they need no reader of their own. */
  follow(follower: LedgerFollower): void {
    this.followers.push(follower);
  }

  /** True while this replica holds the sync's lease, as its last step found. */
  readsHere(): boolean {
    return this.leaseHeld;
  }

  /** The feed's late sweep reads what the ledger stored (see FeedSource.storedSince). */
  storedSince(afterPosition: number | undefined, fromMs: number, limit: number): Promise<StoredListedEntry[]> {
    return storedEntriesSince(this.heavyDb, afterPosition, fromMs, limit);
  }

  /** LEDGER_POLL_SECONDS, or a follower's interval when shorter (the feed's, FEED_POLL_INTERVAL_SECONDS). */
  get pollIntervalMs(): number {
    return Math.min(this.options.settings.pollIntervalSeconds * 1000, ...this.followers.map((follower) => follower.everyMs));
  }

  private get leaseTtlMs(): number {
    return Math.max(3 * this.options.settings.pollIntervalSeconds * 1000, 30_000);
  }

  private async list(page: { limit: number; offset: number }): Promise<TransactionListPage> {
    this.fleetRequests += 1;
    return this.options.fleet.listTransactions(page, { signal: this.abort?.signal });
  }

  private async store(page: TransactionListPage, markLate: boolean): Promise<InsertedEntry[]> {
    return insertInSlices(this.turns, this.heavyDb, identifyPage(page.transactions), { firstSeenAt: this.options.clock.now(), markLate });
  }

  private async tell(report: SyncReport): Promise<SyncReport> {
    this.storedSinceVacuum += report.stored.length;
    // Once after each start too: migration 027 fills ledger_words and cannot vacuum it (a vacuum of
    // pages already marked skips them).
    const due = (this.storedSinceVacuum > 0 && (this.storedSinceVacuum >= ENTRIES_PER_VACUUM || report.walkComplete)) || !this.vacuumedSinceStart;
    if (this.options.db.kind === 'pglite' && due) {
      this.vacuumedSinceStart = true;
      this.storedSinceVacuum = 0;
      await this.options.db.query('VACUUM ledger_entries, ledger_words');
    }
    if (report.stored.length > 0) await this.options.onStored?.(report.stored, report.source);
    return report;
  }

  /**
   * Reads the newest entries: a page of 100 (one request, idle or not), then further pages while a
   * page ends with an entry not stored yet; then stores what was new, oldest first, so that the
   * insertion sequence follows the list. Every entry of a page is looked at, so one the API lists
   * late, below entries already stored, is stored (marked late) when it is within the pages read.
   */
  async pollOnce(): Promise<SyncReport> {
    const { clock } = this.options;
    const db = this.heavyDb;
    const before = await readSyncState(db);
    try {
      const emptyAtStart = (await new StoredLedgerReader(db).count({})) === 0;
      const found = new Map<string, IdentifiedEntry>();
      let requests = 0;
      let offset = 0;
      for (;;) {
        const page = await this.list({ limit: PAGE_SIZE, offset });
        requests += 1;
        const identified = identifyPage(page.transactions);
        const known = await knownKeys(
          db,
          identified.filter((entry) => !found.has(entry.key)).map((entry) => entry.key),
        );
        for (const entry of identified) {
          if (!known.has(entry.key) && !found.has(entry.key)) found.set(entry.key, entry);
        }
        const last = identified.at(-1);
        const endsKnown = last === undefined || known.has(last.key);
        // An empty ledger is filled by the history walk, paced; the poll takes only the newest page.
        if (endsKnown || page.received < PAGE_SIZE || emptyAtStart) break;
        offset += Math.max(1, page.received - trailingSameMillisecond(page.transactions));
      }
      const stored = await insertInSlices(this.turns, db, newestFirst([...found.values()]), { firstSeenAt: clock.now(), markLate: true });
      const now = clock.now();
      await updateSyncState(db, {
        lastPollAt: now,
        upToDateSince: before.historyComplete ? (before.upToDateSince ?? now) : undefined,
        lastError: undefined,
      });
      const report = await this.tell({ source: 'poll', stored: sortBySequence(stored), fleetRequests: requests });
      if (stored.length > 0) for (const follower of this.followers) follower.onNewEntries();
      return report;
    } catch (error) {
      await updateSyncState(db, { upToDateSince: undefined, lastError: describe(error) });
      throw error;
    }
  }

  /**
   * Reads the recent pages again for entries that showed up with an older date than entries already
   * stored: at least SWEEP_PAGES, and on while entries are dated after the last sweep less
   * SWEEP_LATENESS_MS (a busy account lists more than three pages between two sweeps), at most
   * SWEEP_MAX_PAGES. What it stores wakes the followers, as a poll's does.
   */
  async sweepOnce(): Promise<SyncReport> {
    const { clock } = this.options;
    const state = await readSyncState(this.heavyDb);
    const horizonMs = (state.lastSweepAt ?? clock.now()).getTime() - SWEEP_LATENESS_MS;
    const found = new Map<string, IdentifiedEntry>();
    let offset = 0;
    let requests = 0;
    for (let pages = 0; pages < SWEEP_MAX_PAGES; pages += 1) {
      const page = await this.list({ limit: PAGE_SIZE, offset });
      requests += 1;
      const identified = identifyPage(page.transactions);
      for (const entry of identified) if (!found.has(entry.key)) found.set(entry.key, entry);
      const oldest = identified.at(-1);
      if (page.received < PAGE_SIZE || (pages + 1 >= SWEEP_PAGES && (oldest === undefined || oldest.entryMs < horizonMs))) break;
      offset += Math.max(1, page.received - trailingSameMillisecond(page.transactions));
    }
    const stored = await insertInSlices(this.turns, this.heavyDb, newestFirst([...found.values()]), { firstSeenAt: clock.now(), markLate: true });
    await updateSyncState(this.heavyDb, { lastSweepAt: clock.now() });
    const report = await this.tell({ source: 'sweep', stored: sortBySequence(stored), fleetRequests: requests });
    if (stored.length > 0) for (const follower of this.followers) follower.onNewEntries();
    return report;
  }

  /** Whether a walk has a page to read now: the first history walk until done, or a re-walk that is due or under way. */
  walkDue(state: SyncState, now: Date): boolean {
    if (!state.historyComplete || state.walkKind !== undefined) return true;
    const every = this.options.settings.rewalkHours * 3_600_000;
    const last = state.lastWalkCompletedAt ?? state.historyCompletedAt;
    return every > 0 && (last === undefined || now.getTime() - last.getTime() >= every);
  }

  /** Reads one page of the history walk or of a re-walk (starting one when due); undefined when none is due. */
  async walkPage(): Promise<SyncReport | undefined> {
    const { clock } = this.options;
    const db = this.heavyDb;
    let state = await readSyncState(db);
    if (!this.walkDue(state, clock.now())) return undefined;
    let requests = 0;
    if (state.walkKind === undefined) {
      const kind = state.historyComplete ? 'rewalk' : 'history';
      const estimate = kind === 'history' ? await this.estimateListLength() : undefined;
      requests += estimate?.requests ?? 0;
      await updateSyncState(db, {
        walkKind: kind,
        walkOffset: 0,
        walkPages: 0,
        walkStartedAt: clock.now(),
        ...(estimate ? { estimatedTotal: estimate.length } : {}),
      });
      state = await readSyncState(db);
    }
    const kind = state.walkKind ?? 'history';
    const page = await this.list({ limit: PAGE_SIZE, offset: state.walkOffset });
    requests += 1;
    const stored = await this.store(page, kind === 'rewalk');
    const complete = page.received < PAGE_SIZE;
    if (complete) {
      const now = clock.now();
      await updateSyncState(db, {
        walkKind: undefined,
        walkOffset: 0,
        walkPages: state.walkPages + 1,
        lastWalkCompletedAt: now,
        ...(kind === 'history' ? { historyComplete: true, historyCompletedAt: now, upToDateSince: state.lastPollAt ? now : undefined } : {}),
      });
      this.options.logger.info({ kind, pages: state.walkPages + 1 }, 'ledger walk complete');
    } else {
      await updateSyncState(db, {
        walkOffset: state.walkOffset + Math.max(1, page.received - trailingSameMillisecond(page.transactions)),
        walkPages: state.walkPages + 1,
      });
    }
    return this.tell({ source: kind, stored: sortBySequence(stored), fleetRequests: requests, walkComplete: complete });
  }

  /** How long the list is, to within a page: doubling then halving offsets with one-entry pages. */
  private async estimateListLength(): Promise<{ length: number; requests: number }> {
    let requests = 0;
    const exists = async (offset: number) => {
      if (requests > 0) await this.options.clock.sleep(this.options.settings.historyPageDelayMs, this.abort?.signal);
      requests += 1;
      return (await this.list({ limit: 1, offset })).received > 0;
    };
    if (!(await exists(0))) return { length: 0, requests };
    let low = 0;
    let high = PAGE_SIZE;
    while (await exists(high)) {
      low = high;
      high *= 2;
    }
    while (high - low > PAGE_SIZE) {
      const middle = Math.floor((low + high) / 2);
      if (await exists(middle)) low = middle;
      else high = middle;
    }
    return { length: low + 1, requests };
  }

  /**
   * One step of the loop, when this replica holds the lease: a poll when due, else a sweep when
   * due, else a page of a walk. Returns how long to wait before the next step.
   */
  async tick(): Promise<number> {
    const { clock, settings } = this.options;
    const db = this.heavyDb;
    const pollMs = this.pollIntervalMs;
    try {
      this.leaseHeld = await tryAcquireLease(db, LEDGER_LEASE, this.instanceId, this.leaseTtlMs);
    } catch (error) {
      this.leaseHeld = false;
      throw error;
    }
    if (!this.leaseHeld) {
      this.nextPollAt = 0;
      return pollMs;
    }
    const now = clock.now().getTime();
    if (now >= this.nextPollAt) {
      this.nextPollAt = now + pollMs;
      await this.pollOnce();
      return 0;
    }
    const state = await readSyncState(db);
    const sweepMs = settings.sweepMinutes * 60_000;
    if (state.historyComplete && sweepMs > 0 && (!state.lastSweepAt || now - state.lastSweepAt.getTime() >= sweepMs)) {
      await this.sweepOnce();
      return 0;
    }
    if (this.walkDue(state, clock.now())) {
      await this.walkPage();
      return Math.min(settings.historyPageDelayMs, Math.max(0, this.nextPollAt - now));
    }
    return Math.max(0, this.nextPollAt - now);
  }

  start(): void {
    if (this.running) return;
    const abort = new AbortController();
    this.abort = abort;
    const { clock, logger } = this.options;
    this.running = (async () => {
      while (!abort.signal.aborted) {
        let wait: number;
        try {
          wait = await this.tick();
        } catch (error) {
          if (abort.signal.aborted) break;
          logger.warn({ err: describe(error) }, 'ledger sync step failed');
          wait = this.pollIntervalMs;
        }
        try {
          await clock.sleep(wait, abort.signal);
        } catch {
          break;
        }
      }
    })();
  }

  /** Stops the loop, waits for the step under way, and gives the lease up for another replica. */
  async stop(): Promise<void> {
    this.abort?.abort(new Error('ledger sync stopped'));
    await this.running;
    this.running = undefined;
    this.leaseHeld = false;
    await releaseLease(this.heavyDb, LEDGER_LEASE, this.instanceId).catch(() => false);
  }
}

function sortBySequence(entries: InsertedEntry[]): InsertedEntry[] {
  return [...entries].sort((a, b) => a.seq - b.seq);
}

/** The API's order (newest first; a stable sort keeps the list's order within a millisecond). */
function newestFirst(entries: IdentifiedEntry[]): IdentifiedEntry[] {
  return [...entries].sort((a, b) => b.entryMs - a.entryMs);
}

/** Which of `keys` the ledger holds already. */
async function knownKeys(db: Queryable, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const { rows } = await db.query<{ entry_key: string }>('SELECT entry_key FROM ledger_entries WHERE entry_key = ANY($1::text[])', [keys]);
  return new Set(rows.map((row) => row.entry_key));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
