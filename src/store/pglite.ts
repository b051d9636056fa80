/**
 * The Db over embedded PGlite (Postgres in WebAssembly), for single-instance deployments without
 * DATABASE_URL. PGlite runs in a worker thread (pglite-worker.mjs), since each statement runs
 * synchronously, for hundreds of milliseconds when heavy, and would stop every ack meanwhile; this
 * thread keeps the data folder's lock and seeding. PGlite has one connection; its own
 * `transaction()` holds a lock that plain queries also take, so a query never lands inside someone
 * else's transaction.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { PGliteOptions } from '@electric-sql/pglite';
import type { Logger } from '../core/logger.js';
import { lockDataDir } from './data-dir-lock.js';
import { needsCluster, seedCluster } from './pglite-seed.js';
import type { Db, Queryable } from './db.js';
import { tenantNotices } from './notices.js';
import { PgliteThread } from './pglite-thread.js';
import { checkedTenant, SINGLE_WORKSPACE_TENANT } from './tenant.js';
import { createTransactionScope } from './transaction-scope.js';

/**
 * Postgres's defaults are sized for a server of its own: 128 MB of shared buffers alone is most of
 * an idle PGlite's resident memory. One single-user backend with a small treasury data set does
 * well with far less (see the "Footprint" table in docs/performance.md).
 */
const MEMORY_SETTINGS = ['-c', 'shared_buffers=8MB', '-c', 'max_connections=5'];

/** `dataDir` values that keep the database in memory only (tests). */
const IN_MEMORY_DATA_DIRS: readonly string[] = [':memory:', 'memory://'];

export interface PgliteOptions {
  logger?: Logger;
  /** Starts from this dump (`dumpDataDir()`) instead of a new cluster: tests use it to skip initdb's seconds. */
  loadDataDir?: Blob;
  /** The one tenant this database holds (see docs/security.md). Default SINGLE_WORKSPACE_TENANT. */
  tenant?: string;
}

/** A compiled WebAssembly module, named through PGlite's own options (the build's lib has no WebAssembly types). */
type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;

let compiled: Promise<WasmModule> | undefined;

/**
 * Starts compiling PGlite's WebAssembly module (on V8's background threads) and returns it; done
 * once per process, every PGlite opened after shares it. openPglite calls it first, so that the
 * compile overlaps the data folder's lock and copy; the demo calls it earlier still.
 */
export function compilePglite(): Promise<WasmModule> {
  // Liftoff, V8's baseline WebAssembly compiler, only: without it V8 also compiles PGlite's 9 MB
  // module with its optimising tier, which cost about a second of start and 50 MB resident here,
  // for queries that are small either way. Process-wide, for WebAssembly compiled from now on.
  setFlagsFromString('--liftoff-only');
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    // Node has the WebAssembly global; the compiler's lib here does not declare it.
    const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;
    return wasm.compile(await readFile(path.join(path.dirname(entry), 'pglite.wasm')));
  })();
  return compiled;
}

export async function openPglite(dataDir: string, options: PgliteOptions = {}): Promise<Db> {
  const { logger, loadDataDir } = options;
  const tenant = checkedTenant(options.tenant ?? SINGLE_WORKSPACE_TENANT);
  const wasm = compilePglite();
  // Failures are reported where it is awaited, below.
  wasm.catch(() => undefined);
  const inMemory = IN_MEMORY_DATA_DIRS.includes(dataDir);
  const location = inMemory ? undefined : path.resolve(dataDir);
  if (location) await mkdir(location, { recursive: true });
  // Before anything reads the cluster: a second process on the same folder stops here.
  const lock = location ? await lockDataDir(location) : undefined;
  let thread: PgliteThread;
  try {
    if (location && !loadDataDir && (await needsCluster(location))) {
      const source = await seedCluster(location);
      logger?.info({ dataDir: location, source }, 'new database folder: copied a blank cluster into it');
    }
    thread = await PgliteThread.start(
      {
        ...(location ? { dataDir: location } : {}),
        ...(loadDataDir ? { loadDataDir: await loadDataDir.arrayBuffer() } : {}),
        wasmModule: await wasm,
        settings: MEMORY_SETTINGS,
      },
      (error) => logger?.error({ reason: error.message }, 'the embedded database stopped: every query fails until the app restarts'),
    );
  } catch (error) {
    await lock?.release();
    throw error;
  }
  try {
    // For the session, on the one connection there is: every statement after runs as this tenant.
    await thread.query("SELECT set_config('app.tenant', $1, false)", [tenant]);
  } catch (error) {
    await thread.terminate();
    await lock?.release();
    throw error;
  }
  logger?.info({ kind: 'pglite', dataDir: location ?? 'memory' }, 'opened database');

  const scope = createTransactionScope();
  let lastListen = 0;
  let closed = false;
  const db: Db = {
    kind: 'pglite',
    tenant,
    forTenant(other) {
      if (checkedTenant(other) !== tenant) throw new Error('a PGlite database holds one tenant: hosted mode needs DATABASE_URL');
      return db;
    },
    // One process, one connection: heavy jobs share it (they yield between their queries).
    forHeavyWork: () => db,
    // One process, one connection: nothing is ever missed, so `reset` is never called.
    async listen(channel, handlers) {
      const listen = (lastListen += 1);
      const ours = tenantNotices(tenant, handlers);
      thread.onNotice(listen, (payload) => ours.notice(payload));
      try {
        await thread.request({ op: 'listen', channel, listen });
      } catch (error) {
        thread.offNotice(listen);
        throw error;
      }
      return async () => {
        thread.offNotice(listen);
        if (!closed) await thread.request({ op: 'unlisten', listen });
      };
    },
    query(sql, params) {
      scope.assertOutside();
      return thread.query(sql, params);
    },
    async transaction(work) {
      scope.assertOutside();
      const tx = (await thread.request({ op: 'begin' })) as number;
      let ended = false;
      // Refuses queries once the transaction is over, as PGlite's own transaction object does.
      const queryable: Queryable = {
        query: (sql, params) => (ended ? Promise.reject(new Error('Transaction is closed')) : thread.query(sql, params, tx)),
      };
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await scope.run(() => work(queryable));
      } catch (error) {
        ended = true;
        await thread.request({ op: 'rollback', tx });
        throw error;
      }
      ended = true;
      await thread.request({ op: 'commit', tx });
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await thread.request({ op: 'close' });
      } finally {
        await thread.terminate();
        await lock?.release();
      }
    },
  };
  return db;
}
