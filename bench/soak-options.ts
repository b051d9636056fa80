/**
 * The feed soak's options, as given on the command line or in SOAK_* variables, and its result, as
 * printed. The run itself is `soak.ts`.
 */

export interface SoakOptions {
  store: 'embedded' | 'postgres';
  /** How long entries are made for. */
  minutes: number;
  /** One new entry every this many milliseconds: exactly (`steady`), or on average, at random moments (`random`, a Poisson process). */
  rateMs: number;
  arrivals: 'steady' | 'random';
  /** One entry in this many is `Pending` (0: none). */
  pendingEvery: number;
  /**
   * One entry in this many (0: none) is listed late: dated `lateByMs` before it appears in the list,
   * so that it shows up below entries listed before it (an API that lists an entry once it completes).
   */
  lateEvery: number;
  lateByMs: number;
  /** FEED_POLL_INTERVAL_SECONDS and LEDGER_POLL_SECONDS. */
  intervalSeconds: number;
  /** `/fleet balance` and `/fleet tx`, each this often. */
  commandEveryMs: number;
  /** After the last entry: the longest wait for the rest to be posted (the run waits two intervals more once all are). */
  settleSeconds: number;
  /** The run's folder; a new one under the system's temporary folder when absent. */
  dir?: string;
  /**
   * Keep the Postgres schema, and the folder made when `dir` is absent, when the run passed too; a
   * failed run keeps both, and a folder given as `dir` is always kept.
   */
  keep: boolean;
  /** LEDGER_HISTORY_PAGE_DELAY_MS; the app's default when absent. */
  historyPageDelayMs?: number;
  /** Where a line of progress goes every minute; none when absent. */
  progress?: (line: string) => void;
}

export const DEFAULT_SOAK: SoakOptions = {
  store: 'embedded',
  minutes: 2,
  rateMs: 250,
  arrivals: 'steady',
  pendingEvery: 17,
  lateEvery: 0,
  lateByMs: 0,
  intervalSeconds: 5,
  commandEveryMs: 2000,
  settleSeconds: 60,
  keep: false,
};

/** What the bot's database says of an entry missing or repeated. */
export interface EntryDetails {
  reference: string;
  date: string;
  status: string;
  posted: number;
  /** When it appeared in the list (its date, unless listed late). */
  made: string;
  /** Null when the ledger never stored it. */
  ledger: { seq: number; late: boolean; firstSeenAt: string; storedAfterS: number } | null;
  /** Whether the feed remembers it as posted (`feed_posted_entries`). */
  rememberedAsPosted: boolean;
  /** The ledger's entries just before and after it in insertion order (`seq`), to see whether it was stored out of order. */
  neighbours: Array<{ seq: number; reference: string; date: string; firstSeenAt: string; late: boolean }>;
}

export interface MemorySample {
  minute: number;
  rss_mb: number;
  heap_mb: number;
  array_buffers_mb: number;
}

export interface SoakResult {
  store: SoakOptions['store'];
  minutes: number;
  rate_ms: number;
  arrivals: SoakOptions['arrivals'];
  pending_every: number;
  late_every: number;
  late_by_ms: number;
  interval_s: number;
  dir: string;
  /** Postgres: the URL of the run's schema, kept when the run failed. */
  database_url?: string;
  entries_made: number;
  pending_made: number;
  /** Entries listed late on purpose (`lateEvery`). */
  listed_late_made: number;
  entries_posted: number;
  missing: number;
  repeated: number;
  /** Entries posted in messages that said they were late (the feed's late sweep). */
  posted_late: number;
  /** References in the feed channel that the soak did not make. */
  posted_not_made: number;
  /** Feed messages posted as text alone (Slack refused their blocks), and the Block Kit limits the workspace saw broken. */
  text_only_messages: number;
  limit_violations: string[];
  delay_p50_s: number;
  delay_p99_s: number;
  delay_max_s: number;
  /** The bound each delay should hold: one interval plus posting time (2 s). */
  delay_bound_s: number;
  over_bound: number;
  commands_sent: number;
  commands_not_acknowledged: number;
  feed_late_entries: number;
  ledger_late_entries: number;
  feed_last_error: string | undefined;
  memory: MemorySample[];
  missing_entries: EntryDetails[];
  repeated_entries: EntryDetails[];
  passed: boolean;
}

export function printSoak(result: SoakResult): void {
  const storeName = result.store === 'embedded' ? 'embedded store' : 'Postgres';
  const pending =
    (result.pending_every > 0 ? `1 in ${result.pending_every} Pending` : 'none Pending') +
    (result.late_every > 0 ? `, 1 in ${result.late_every} listed ${result.late_by_ms / 1000} s after its date` : '');
  console.log(
    `\nFeed soak, ${storeName}: ${result.minutes} min of a new entry every ${result.rate_ms} ms${result.arrivals === 'random' ? ' on average, at random moments' : ''} (${pending}), ledger and feed every ${result.interval_s} s, /fleet balance and /fleet tx`,
  );
  console.table({
    'entries made (Pending among them)': { value: `${result.entries_made} (${result.pending_made})`, target: '' },
    'entries posted': { value: result.entries_posted, target: 'all' },
    missing: { value: result.missing, target: 0 },
    repeated: { value: result.repeated, target: 0 },
    'posted late (late sweep)': { value: result.posted_late, target: 0 },
    'creation → post p50 (s)': { value: result.delay_p50_s, target: '' },
    'creation → post p99 (s)': { value: result.delay_p99_s, target: `≤ ${result.delay_bound_s}` },
    'creation → post max (s)': { value: result.delay_max_s, target: `≤ ${result.delay_bound_s}` },
    [`posted after more than ${result.delay_bound_s} s`]: { value: result.over_bound, target: 0 },
    'commands sent (not acknowledged)': { value: `${result.commands_sent} (${result.commands_not_acknowledged})`, target: '' },
    'ledger entries stored late': { value: result.ledger_late_entries, target: '' },
    'feed messages as text alone (Block Kit limits broken)': { value: `${result.text_only_messages} (${result.limit_violations.length})`, target: 0 },
  });
  console.log(
    `memory (minute: RSS / JS heap / ArrayBuffers MB): ${result.memory.map((m) => `${m.minute}: ${m.rss_mb}/${m.heap_mb}/${m.array_buffers_mb}`).join(', ')}`,
  );
  for (const entry of [...result.missing_entries, ...result.repeated_entries])
    console.log(`${entry.posted === 0 ? 'missing' : `posted ${entry.posted} times`}: ${JSON.stringify(entry)}`);
  if (!result.passed) console.log(`the run's files are kept in ${result.dir}${result.database_url ? `; its database: ${result.database_url}` : ''}`);
}

/** `--minutes 30 --store postgres --rate-ms 250 --settle-seconds 60 --dir <folder> --keep`, or SOAK_MINUTES, SOAK_STORE, … */
export function soakOptionsFrom(argv: string[], env: NodeJS.ProcessEnv): Partial<SoakOptions> {
  const flag = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? (argv[at + 1] ?? '') : env[`SOAK_${name.toUpperCase().replace(/-/g, '_')}`];
  };
  const number = (name: string) => {
    const text = flag(name);
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) throw new Error(`soak: --${name} must be a number, not ${text}`);
    return value;
  };
  const arrivals = flag('arrivals');
  if (arrivals !== undefined && arrivals !== 'steady' && arrivals !== 'random') throw new Error(`soak: --arrivals is steady or random, not ${arrivals}`);
  const store = flag('store');
  if (store !== undefined && store !== 'embedded' && store !== 'postgres') throw new Error(`soak: --store is embedded or postgres, not ${store}`);
  const chosen: Partial<SoakOptions> = {
    store,
    arrivals,
    minutes: number('minutes'),
    rateMs: number('rate-ms'),
    pendingEvery: number('pending-every'),
    lateEvery: number('late-every'),
    lateByMs: number('late-by-ms'),
    settleSeconds: number('settle-seconds'),
    commandEveryMs: number('command-every-ms'),
    historyPageDelayMs: number('history-page-delay-ms'),
    dir: flag('dir'),
    keep: argv.includes('--keep') || env.SOAK_KEEP === '1' ? true : undefined,
  };
  return Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
}
