/**
 * The records check from the domain's side: reads the partner's file through an import profile
 * (its preview first, nothing matched), asks the ledger for the records' days (widened by the
 * tolerance) and for their references, matches, and keeps the run with its exceptions. Who may run it is the Slack layer's check, made before any file is read; sending
 * the summary and the file is the Slack layer's job too.
 */
import type { Clock } from '../core/clock.js';
import { nextDay, previousDay, startOfDay } from '../core/calendar.js';
import { EventLoopTurns, Slices, type BackgroundTurns } from '../runtime/turns.js';
import { randomReadableCode } from '../payouts/identifiers.js';
import type { Db } from '../store/db.js';
import { exceptionRows, type ExceptionRow } from './exceptions.js';
import type { PartnerRecord } from './file.js';
import { entriesBetween, entriesByReference, ledgerCurrencies, ledgerGapFor, type LedgerGap } from './ledger-side.js';
import { matchRecords, type DayGrid, type LedgerCandidate } from './match.js';
import { pickProfile, type ProfilePick } from './profile-pick.js';
import { readWithProfile, type ProfileFileProblem, type ProfileReading, type ProfileRowProblem } from './profile-reader.js';
import type { ImportProfile } from './profile.js';
import { ImportProfiles, LISTED_PROFILES } from './profiles-store.js';
import type { RecordsSettings } from './settings.js';
import { keepRun, recentRuns, runById, runExceptions, SHOWN_SUM_GROUPS, type CurrencyTotal, type RunSummary } from './store.js';

export interface RecordsServiceOptions {
  db: Db;
  clock: Clock;
  settings: RecordsSettings;
  /** LEDGER_TIMEZONE: the records' days are read there. */
  timeZone: string;
  /** Currencies a record may name besides those the ledger holds (the payout currencies). */
  currencies: readonly string[];
  /** How old the ledger's last poll may be before a period not yet over is said to be behind. */
  staleAfterMs: number;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

export interface RecordsSubmission {
  userId: string;
  fileName: string;
  content: Uint8Array | string;
  /** Names the submission (a modal and its file): the same one delivered twice is kept once. */
  sourceKey: string;
  /** How the file is read (see `pick`). */
  profile: ImportProfile;
}

/** Why a file is refused: the file as a whole, its rows' problems, or no row that counts. */
export type RecordsRefusal =
  | ProfileFileProblem
  | { code: 'rows'; problems: ProfileRowProblem[]; more: number }
  /** Every row was left out by its status. */
  | { code: 'file_no_records'; leftOut: number };

/** A record as the preview shows it: the date as written, the signed amount, its currency and reference. */
export interface PreviewRecord {
  row: number;
  date: string;
  amountMinor: number;
  currency: string;
  reference: string;
}

/** A file read through a profile, nothing matched nor kept. */
export type RecordsPreview =
  | { ok: false; problem: ProfileFileProblem }
  | {
      ok: true;
      /** The first records as read, in the file's order. */
      first: PreviewRecord[];
      records: number;
      leftOut: Array<{ row: number; status: string }>;
      /** Every problem of every row, up to the reader's bound, and the count of the rest. */
      problems: ProfileRowProblem[];
      moreProblems: number;
    };

/** Records the preview shows. */
export const PREVIEW_RECORDS = 10;

export interface RecordsRun {
  summary: RunSummary;
  /** Why nothing was called missing from the records; undefined when the ledger vouches for the period. */
  gap: LedgerGap | undefined;
  exceptions: ExceptionRow[];
  /** False when this submission had been kept already (a repeat): nothing new was stored. */
  kept: boolean;
}

export type RecordsOutcome = { ok: true; run: RecordsRun } | { ok: false; problem: RecordsRefusal };

export const RUN_ID_PATTERN = /^RC-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;

export class RecordsService {
  private readonly turns: BackgroundTurns;
  /** The team's saved import profiles. */
  readonly profiles: ImportProfiles;

  constructor(private readonly options: RecordsServiceOptions) {
    this.turns = options.turns ?? new EventLoopTurns();
    this.profiles = new ImportProfiles(options.db, options.clock);
  }

  get settings(): RecordsSettings {
    return this.options.settings;
  }

  /** The profile that reads `content`: the saved one named `name`, else the first saved one the file's header fits, else the built-in one. */
  async pick(content: Uint8Array | string, name?: string): Promise<ProfilePick> {
    const saved = await this.profiles.list(LISTED_PROFILES);
    return pickProfile(
      content,
      saved.map(({ profile }) => profile),
      { timeZone: this.options.timeZone, ...(name === undefined ? {} : { name }) },
    );
  }

  /** The file as `profile` reads it, before anything is matched: its first records, the counts, the rows left out and every problem. */
  async preview(content: Uint8Array | string, profile: ImportProfile): Promise<RecordsPreview> {
    const reading = await this.read(content, profile);
    if (!reading.ok) return reading;
    const first = reading.records
      .slice(0, PREVIEW_RECORDS)
      .map(({ row, dateText, amountMinor, currency, reference }) => ({ row, date: dateText, amountMinor, currency, reference }));
    const { records, leftOut, problems, moreProblems } = reading;
    return { ok: true, first, records: records.length, leftOut, problems, moreProblems };
  }

  /** Checks one file read through its profile; a file with any problem, or without a record, keeps nothing. */
  async check(submission: RecordsSubmission): Promise<RecordsOutcome> {
    const { db, settings, timeZone, clock } = this.options;
    const reading = await this.read(submission.content, submission.profile);
    if (!reading.ok) return reading;
    if (reading.problems.length > 0) return { ok: false, problem: { code: 'rows', problems: reading.problems, more: reading.moreProblems } };
    if (reading.records.length === 0) return { ok: false, problem: { code: 'file_no_records', leftOut: reading.leftOut.length } };
    const { records } = reading;
    const grid = await dayGrid(records, settings.toleranceDays, timeZone, this.turns);
    const from = new Date(grid.starts[0]!);
    const before = new Date(grid.starts[grid.starts.length - 1]!);
    const period = { start: new Date(grid.starts[grid.firstPeriodDay]!), end: new Date(grid.starts[grid.lastPeriodDay + 1]!) };
    const now = clock.now();
    const gap = await ledgerGapFor(db, period, now, this.options.staleAfterMs);
    // A file of one fixed currency (a bank account's statement) speaks of that currency only: the ledger's entries in others are not missing from it.
    const { currency } = submission.profile;
    const windowEntries = (await entriesBetween(db, from, before)).filter((entry) => !('fixed' in currency) || entry.currency === currency.fixed);
    const references = await referencesOutside(records, windowEntries, this.turns);
    const referencedEntries = await entriesByReference(db, references, from, before);
    const result = await matchRecords({
      records,
      windowEntries,
      referencedEntries,
      grid,
      toleranceDays: settings.toleranceDays,
      ledgerComplete: gap === undefined,
      turns: this.turns,
    });
    const exceptions = await exceptionRows(result, gap === undefined, this.turns);
    const totals = new Map<string, CurrencyTotal>();
    const slices = new Slices(this.turns);
    for (const { record } of result.matched) {
      if (slices.due()) await slices.next();
      const total = totals.get(record.currency) ?? { count: 0, minor: 0 };
      totals.set(record.currency, { count: total.count + 1, minor: total.minor + record.amountMinor });
    }
    const summary: RunSummary = {
      id: `RC-${randomReadableCode(6)}`,
      userId: submission.userId,
      createdAt: now,
      fileName: submission.fileName,
      periodStart: grid.days[grid.firstPeriodDay]!,
      periodEnd: grid.days[grid.lastPeriodDay]!,
      ledgerComplete: gap === undefined,
      records: records.length,
      matched: result.matched.length,
      differences: result.differences.length,
      notInLedger: result.notInLedger.length,
      notInRecords: result.notInRecords.length,
      totals: new Map([...totals].sort(([a], [b]) => (a < b ? -1 : 1))),
      bySum: {
        groups: result.bySum.length,
        records: result.bySum.reduce((count, group) => count + group.records.length, 0),
        shown: result.bySum
          .slice(0, SHOWN_SUM_GROUPS)
          .map(({ reference, entry, records: group }) => ({ reference, records: group.length, currency: entry.currency, minor: entry.amountMinor })),
      },
    };
    const kept = await keepRun(db, { ...summary, sourceKey: submission.sourceKey }, exceptions);
    if (!kept.kept) {
      const first = await runById(db, kept.id);
      return { ok: true, run: { summary: first ?? summary, gap, exceptions: await runExceptions(db, kept.id), kept: false } };
    }
    return { ok: true, run: { summary, gap, exceptions, kept: true } };
  }

  /** `content` read through `profile`; the currencies allowed are the payout currencies and those the ledger holds. */
  private async read(content: Uint8Array | string, profile: ImportProfile): Promise<ProfileReading> {
    const { db, settings, timeZone } = this.options;
    const currencies = new Set([...this.options.currencies, ...(await ledgerCurrencies(db))]);
    return readWithProfile(content, profile, { maxBytes: settings.maxBytes, maxRows: settings.maxRows, timeZone, currencies }, this.turns);
  }

  /** The latest runs, newest first (everyone's: the team reconciles one account). */
  history(limit = 10): Promise<RunSummary[]> {
    return recentRuns(this.options.db, limit);
  }

  /** A kept run and its exceptions, to write its file again; undefined for an unknown id. */
  async run(id: string): Promise<{ summary: RunSummary; exceptions: ExceptionRow[] } | undefined> {
    if (!RUN_ID_PATTERN.test(id)) return undefined;
    const summary = await runById(this.options.db, id);
    return summary && { summary, exceptions: await runExceptions(this.options.db, id) };
  }
}

/** The records' references (each once, in the file's order) that no entry of the records' days holds: only they are looked for in the rest of the ledger. */
async function referencesOutside(records: readonly PartnerRecord[], windowEntries: readonly LedgerCandidate[], turns: BackgroundTurns): Promise<string[]> {
  const slices = new Slices(turns);
  const inWindow = new Set<string>();
  for (const entry of windowEntries) {
    if (slices.due()) await slices.next();
    inWindow.add(entry.reference);
    inWindow.add(entry.partnerReference ?? '');
  }
  const references = new Set<string>();
  for (const { reference } of records) {
    if (slices.due()) await slices.next();
    if (reference !== '' && !inWindow.has(reference)) references.add(reference);
  }
  return [...references];
}

/** The records' days widened by the tolerance, each with its first instant in `timeZone`. */
export async function dayGrid(
  records: readonly PartnerRecord[],
  toleranceDays: number,
  timeZone: string,
  turns: BackgroundTurns = new EventLoopTurns(),
): Promise<DayGrid> {
  const slices = new Slices(turns);
  let first = records[0]!.day;
  let last = first;
  for (const record of records) {
    if (slices.due()) await slices.next();
    if (record.day < first) first = record.day;
    if (record.day > last) last = record.day;
  }
  let start = first;
  for (let step = 0; step < toleranceDays; step += 1) start = previousDay(start);
  let end = last;
  for (let step = 0; step < toleranceDays; step += 1) end = nextDay(end);
  const days: string[] = [];
  const starts: number[] = [];
  for (let day = start; day <= end; day = nextDay(day)) {
    days.push(day);
    starts.push(startOfDay(day, timeZone).getTime());
    // Each day's start is searched for through Intl: a long period is worked out in slices.
    if (slices.due()) await slices.next();
  }
  starts.push(startOfDay(nextDay(end), timeZone).getTime());
  return { days, starts, firstPeriodDay: days.indexOf(first), lastPeriodDay: days.indexOf(last) };
}
