// @ts-check
/**
 * The worker thread that owns the embedded database (pglite.ts starts it): PGlite runs each
 * statement synchronously in WebAssembly, hundreds of milliseconds for a heavy one, so it runs here
 * rather than on the thread that acknowledges Slack. It answers the messages of pglite-protocol.ts.
 *
 * Plain JavaScript, checked through JSDoc: every way the app runs (vitest, tsx, the compiled dist,
 * the demo's bundle) starts this very file with no loader, and the build copies it into dist/.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @typedef {import('./pglite-protocol.js').WorkerSetup} WorkerSetup */
/** @typedef {import('./pglite-protocol.js').Request} Request */
/** @typedef {import('./pglite-protocol.js').Reply} Reply */
/** @typedef {import('./pglite-protocol.js').QueryResult<unknown>} QueryResult */
/** @typedef {import('@electric-sql/pglite').Transaction} Transaction */
/** @typedef {import('@electric-sql/pglite').Results} Results */

const DATE_OID = 1082;
/** Rejects a transaction's work so that PGlite rolls it back; never reported. */
const ROLLBACK = Symbol('rollback');

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread (see pglite.ts)');
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- what pglite-thread.ts starts the worker with
const setup = /** @type {WorkerSetup} */ (workerData);

/** @param {Reply} reply */
const send = (reply) => port.postMessage(reply);

// Typed as open: every use of it is in answer to a request, which only an open PGlite listens for.
const lite = /** @type {PGlite} */ (await open());
if (lite) send({ id: 0, result: null });

/**
 * How an open transaction ends: `commit` resolves its work, `rollback` rejects it with ROLLBACK;
 * `outcome` is PGlite's transaction(), settled once COMMIT or ROLLBACK has run.
 * @typedef {{ commit: () => void, rollback: (reason: unknown) => void, outcome: Promise<unknown> }} Ending
 */

/** @type {Map<number, Transaction>} Open transactions by id: each holds PGlite's one connection until it ends. */
const transactions = new Map();
/** @type {Map<number, Ending>} */
const endings = new Map();
/** @type {Map<number, () => Promise<void>>} Stops each listen() by id. */
const unlisteners = new Map();
let lastTransaction = 0;
/** Set by `close`: no transaction opens after it. */
let closing = false;

// Without PGlite nothing listens, and the thread ends once the app's thread has the error.
if (lite)
  port.on('message', (/** @type {Request} */ request) => {
    handle(request).then(
      (result) => {
        try {
          send({ id: request.id, result });
        } catch (error) {
          // A value the structured clone refuses: that query fails, the thread goes on.
          send({ id: request.id, error: describeError(error) });
        }
      },
      (error) => send({ id: request.id, error: describeError(error) }),
    );
  });

/**
 * @param {Request} request
 * @returns {Promise<unknown>}
 */
async function handle(request) {
  switch (request.op) {
    case 'query': {
      const target = request.tx === undefined ? lite : transactions.get(request.tx);
      if (!target) throw new Error('Transaction is closed');
      return run(target, request.sql, request.params);
    }
    case 'begin':
      return begin();
    case 'commit':
    case 'rollback':
      return end(request.tx, request.op);
    case 'listen': {
      const listenId = request.listen;
      const unlisten = await lite.listen(request.channel, (payload) => send({ id: 0, notice: listenId, payload }));
      unlisteners.set(listenId, unlisten);
      return null;
    }
    case 'unlisten': {
      const unlisten = unlisteners.get(request.listen);
      unlisteners.delete(request.listen);
      if (unlisten && !lite.closed) await unlisten();
      return null;
    }
    case 'close':
      closing = true;
      await rollBackOpenTransactions();
      if (!lite.closed) await lite.close();
      return null;
  }
}

/**
 * Opens a transaction with PGlite's own transaction(), which holds the connection (plain queries
 * wait for it, as they did on the main thread) until `end` settles the work it runs.
 * @returns {Promise<number>} the transaction's id, once BEGIN has run
 */
function begin() {
  const txId = (lastTransaction += 1);
  return new Promise((opened, failed) => {
    /** @type {Ending} */
    const ending = { commit: () => undefined, rollback: () => undefined, outcome: Promise.resolve() };
    endings.set(txId, ending);
    ending.outcome = lite.transaction((tx) => {
      // Queued behind one that close rolled back: it never starts.
      if (closing) return Promise.reject(new Error('The embedded database is closing'));
      const work = new Promise((commit, rollback) => Object.assign(ending, { commit, rollback }));
      transactions.set(txId, tx);
      opened(txId);
      return work;
    });
    ending.outcome.catch(failed).finally(() => {
      transactions.delete(txId);
      endings.delete(txId);
    });
  });
}

/**
 * @param {number} txId
 * @param {'commit' | 'rollback'} how
 */
async function end(txId, how) {
  const ending = endings.get(txId);
  if (!ending || !transactions.has(txId)) throw new Error('Transaction is closed');
  transactions.delete(txId);
  if (how === 'commit') ending.commit();
  else ending.rollback(ROLLBACK);
  try {
    await ending.outcome;
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  return null;
}

/**
 * Rolls back every transaction still open, and those queued behind them, so that closing does not
 * wait for work the app will never finish (it is stopping): what they wrote was never committed,
 * as after a crash.
 */
async function rollBackOpenTransactions() {
  while (endings.size > 0) {
    for (const [txId, ending] of endings) {
      if (!transactions.delete(txId)) continue;
      ending.rollback(ROLLBACK);
    }
    await Promise.allSettled([...endings.values()].map((ending) => ending.outcome));
  }
}

/**
 * Opens PGlite as the app's thread asked; on failure, sends it the error instead.
 * @returns {Promise<PGlite | undefined>}
 */
async function open() {
  try {
    return await PGlite.create({
      ...(setup.dataDir ? { dataDir: setup.dataDir } : {}),
      ...(setup.loadDataDir ? { loadDataDir: new Blob([setup.loadDataDir]) } : {}),
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- PGlite types it with the DOM lib's WebAssembly, which the app's lib lacks
      pgliteWasmModule: setup.wasmModule,
      startParams: [...PGlite.defaultStartParams, ...setup.settings],
      // A calendar date stays 'YYYY-MM-DD' text, as in postgres.ts: a Date would shift with the time zone.
      parsers: { [DATE_OID]: (/** @type {string} */ value) => value },
    });
  } catch (error) {
    send({ id: 0, error: describeError(error) });
    return undefined;
  }
}

/**
 * Without parameters a query may hold several statements, as with `pg`; the last one's result is returned.
 * @param {PGlite | Transaction} target
 * @param {string} sql
 * @param {unknown[] | undefined} params
 * @returns {Promise<QueryResult>}
 */
async function run(target, sql, params) {
  if (params && params.length > 0) return toQueryResult(await target.query(sql, params));
  const results = await target.exec(sql);
  const last = results.at(-1);
  return last ? toQueryResult(last) : { rows: [], rowCount: 0 };
}

/**
 * @param {Results} result
 * @returns {QueryResult}
 */
function toQueryResult(result) {
  // rowCount is the statement's own count (rows returned or changed); affectedRows is the fallback.
  return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? 0 };
}

/**
 * An error as the main thread rebuilds it: a structured clone keeps only an Error's message, so
 * Postgres's fields (`code`, `constraint`, `detail`...) travel apart.
 * @param {unknown} error
 * @returns {import('./pglite-protocol.js').ErrorDescription}
 */
function describeError(error) {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  /** @type {Record<string, string | number | boolean>} */
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { message: error.message, fields };
}
