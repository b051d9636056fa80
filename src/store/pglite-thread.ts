/**
 * The app's side of pglite-worker.mjs: starts the worker thread that owns PGlite, sends it
 * requests and settles each with the worker's reply, and hands notices to their listeners.
 */
import { Worker } from 'node:worker_threads';
import type { ErrorDescription, QueryResult, Reply, Request, WorkerSetup } from './pglite-protocol.js';

/** Beside this module in every way the app runs: src/store in vitest, tsx and the demo's bundle; dist/store once built. */
const WORKER_FILE = new URL('./pglite-worker.mjs', import.meta.url);

const WORKER_YOUNG_GENERATION_MB = 4;

type Outgoing = Request extends infer Each ? (Each extends Request ? Omit<Each, 'id'> : never) : never;

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class PgliteThread {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private lastId = 0;
  /** Set once the thread has stopped: every request after that fails with it. */
  private stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {}

  /** Starts the worker and resolves once PGlite is open in it (or rejects with why it could not open). */
  static async start(setup: WorkerSetup, onStop: (error: Error) => void): Promise<PgliteThread> {
    const worker = new Worker(WORKER_FILE, {
      workerData: setup,
      transferList: setup.loadDataDir ? [setup.loadDataDir] : [],
      // A bare thread: no loader (tsx, vitest) that the parent may run with, since the worker is plain JavaScript.
      execArgv: [],
      // V8's default young generation (16 MB semi-spaces) was about 11 MB of idle resident memory;
      // the worker's own objects are a query's rows at a time (docs/performance.md, "Footprint").
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const thread = new PgliteThread(worker);
    const opened = new Promise<unknown>((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    worker.on('message', (reply: Reply) => thread.settle(reply));
    const stop = (error: Error) => {
      if (thread.stopped) return;
      thread.fail(error);
      onStop(error);
    };
    worker.on('error', (error) => stop(new Error(`The embedded database's thread failed: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => stop(new Error(`The embedded database's thread stopped (exit code ${code})`)));
    try {
      await opened;
    } catch (error) {
      // Reported by the caller, which gets the error: not also as a thread that stopped.
      thread.fail(error as Error);
      await worker.terminate();
      throw error;
    }
    // Idle, the thread does not keep the process alive (PGlite on the main thread did not either).
    worker.unref();
    return thread;
  }

  query<Row>(sql: string, params: unknown[] | undefined, tx?: number): Promise<QueryResult<Row>> {
    return this.request({ op: 'query', sql, params, tx }) as Promise<QueryResult<Row>>;
  }

  request(request: Outgoing): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = (this.lastId += 1);
    try {
      this.worker.postMessage({ ...request, id });
    } catch (error) {
      // A parameter that cannot be cloned (a function, say): this query fails, nothing waits.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // Waiting for an answer keeps the process alive, as an await on PGlite in this thread did.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /** Calls `notice` with each payload the worker sends for listen id `listen`. */
  onNotice(listen: number, notice: (payload: string) => void): void {
    this.listeners.set(listen, notice);
  }

  offNotice(listen: number): void {
    this.listeners.delete(listen);
  }

  /** Stops the thread; a request still waiting fails, as does every request after. */
  async terminate(): Promise<void> {
    if (!this.stopped) this.fail(new Error('The embedded database is closed'));
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.stopped = error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  private settle(reply: Reply): void {
    if ('notice' in reply) {
      this.listeners.get(reply.notice)?.(reply.payload);
      return;
    }
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in reply) waiting.reject(toError(reply.error));
    else waiting.resolve(reply.result);
  }
}

/** The worker's error as PGlite threw it there: its message and Postgres's fields (`code` first of all). */
function toError(description: ErrorDescription): Error {
  return Object.assign(new Error(description.message), description.fields);
}
