/**
 * One person's ledger export, from the domain's side: at most one at a time per person across
 * replicas (a lease named `export:<userId>`), the count checked against the limit, and the CSV
 * written to a temporary folder that is removed when the export ends. Sending the file is the
 * Slack layer's job.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../core/logger.js';
import type { BackgroundTurns } from '../runtime/turns.js';
import { releaseLease, tryAcquireLease } from '../store/leases.js';
import type { Queryable } from '../store/db.js';
import { writeLedgerCsv, type PayoutLookup, type PersonNames } from './export-csv.js';
import { dayIn } from '../core/calendar.js';
import type { LedgerFilter, LedgerReader, LedgerStatus } from './types.js';

// Rows read per query: on the embedded store a query runs on the main thread, so a page is kept to
// a few milliseconds of work and Slack requests are answered between two pages.
const STREAM_BATCH = 250;

export interface LedgerExportSettings {
  /** More matches than this are refused (EXPORT_MAX_ROWS). */
  maxRows: number;
}

export interface LedgerExporterOptions {
  ledger: LedgerReader;
  db: Queryable;
  payouts: PayoutLookup;
  /** The names of requesters and approvers (from Slack); without it the name columns hold their ids. */
  names?: PersonNames;
  settings: LedgerExportSettings;
  logger: Logger;
  /** How long a person's export lease lives without renewal: a replica that dies frees it after this. Default 60 s. */
  leaseTtlMs?: number;
  /** Where temporary files go; default the system's temporary folder. */
  tempDir?: string;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

export type ExportCheck =
  | { kind: 'empty'; status: LedgerStatus }
  | { kind: 'too_many'; count: number; maxRows: number; status: LedgerStatus }
  | { kind: 'ready'; count: number; status: LedgerStatus };

export interface WrittenExport {
  path: string;
  rows: number;
}

/** A running export, holding the person's lease until `finish()`. */
export class ExportJob {
  private folder: string | undefined;
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly owner: LedgerExporter,
    private readonly leaseName: string,
    private readonly holder: string,
  ) {
    // Renewed while it runs, so that a long export keeps it and a dead replica's lease runs out.
    this.renewal = setInterval(() => {
      void tryAcquireLease(owner.options.db, leaseName, holder, owner.leaseTtlMs).catch((error: unknown) => {
        owner.options.logger.warn({ err: error, lease: leaseName }, 'could not renew an export lease');
      });
    }, owner.leaseTtlMs / 3);
    this.renewal.unref();
  }

  /** How many entries match, against the limit, and how complete the ledger is. */
  async check(filter: LedgerFilter): Promise<ExportCheck> {
    const { ledger, settings } = this.owner.options;
    const [count, status] = await Promise.all([ledger.count(filter), ledger.status()]);
    if (count === 0) return { kind: 'empty', status };
    if (count > settings.maxRows) return { kind: 'too_many', count, maxRows: settings.maxRows, status };
    return { kind: 'ready', count, status };
  }

  /** Writes the matches, oldest first, to `fileName` in a temporary folder of this job's own. */
  async write(filter: LedgerFilter, fileName: string, onProgress?: (rows: number) => void | Promise<void>): Promise<WrittenExport> {
    const { ledger, payouts, names } = this.owner.options;
    this.folder ??= await mkdtemp(join(this.owner.options.tempDir ?? tmpdir(), 'fleet-export-'));
    const path = join(this.folder, fileName);
    const { rows } = await writeLedgerCsv(ledger.stream(filter, { batchSize: STREAM_BATCH }), path, payouts, {
      ...(onProgress ? { onProgress } : {}),
      ...(names ? { names } : {}),
      ...(this.owner.options.turns ? { turns: this.owner.options.turns } : {}),
    });
    return { path, rows };
  }

  /** Removes the file and gives the lease back; safe to call once the export succeeded or failed. */
  async finish(): Promise<void> {
    clearInterval(this.renewal);
    const { db, logger } = this.owner.options;
    if (this.folder)
      await rm(this.folder, { recursive: true, force: true }).catch((error: unknown) => logger.warn({ err: error }, 'could not remove an export file'));
    await releaseLease(db, this.leaseName, this.holder).catch((error: unknown) =>
      logger.warn({ err: error, lease: this.leaseName }, 'could not release an export lease'),
    );
  }
}

export class LedgerExporter {
  readonly leaseTtlMs: number;

  constructor(readonly options: LedgerExporterOptions) {
    this.leaseTtlMs = options.leaseTtlMs ?? 60_000;
  }

  get ledger(): LedgerReader {
    return this.options.ledger;
  }

  /** Starts an export for `userId`; undefined while another of theirs runs, on this replica or another. */
  async begin(userId: string): Promise<ExportJob | undefined> {
    const name = `export:${userId}`;
    const holder = randomUUID();
    if (!(await tryAcquireLease(this.options.db, name, holder, this.leaseTtlMs))) return undefined;
    return new ExportJob(this, name, holder);
  }
}

/** The last full calendar month before `now` in `timeZone`, as inclusive days (`2026-10-01` to `2026-10-31`). */
export function lastFullMonth(now: Date, timeZone: string): { since: string; until: string } {
  const [year, month] = dayIn(now, timeZone).split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 2, 1));
  const last = new Date(Date.UTC(year, month - 1, 0));
  return { since: first.toISOString().slice(0, 10), until: last.toISOString().slice(0, 10) };
}

/** `fleet-transactions-2026-10-01_2026-10-31.csv`: the period in the name, nothing typed by a person. */
export function exportFileName(search: { since?: string; until?: string }): string {
  const period = [search.since ?? 'start', search.until ?? 'now'].join('_');
  return `fleet-transactions-${period}.csv`;
}
