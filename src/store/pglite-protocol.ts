/**
 * The messages between pglite.ts (the app's thread) and pglite-worker.mjs (the thread that owns
 * PGlite). Values travel by structured clone, which keeps what PGlite reads back (Date, BigInt,
 * Uint8Array, parsed JSON) as it is.
 */
import type { PGliteOptions } from '@electric-sql/pglite';

export type { QueryResult } from './db.js';

/** What the worker is started with (its `workerData`). */
export interface WorkerSetup {
  /** The cluster's folder; unset: in memory. */
  dataDir?: string;
  /** A dump (`dumpDataDir()`) to start from instead of a new cluster. */
  loadDataDir?: ArrayBuffer;
  /** PGlite's WebAssembly, compiled once per process and shared with every worker. */
  wasmModule: NonNullable<PGliteOptions['pgliteWasmModule']>;
  /** Postgres settings added to PGlite's start parameters (`-c name=value` pairs). */
  settings: string[];
}

/** A request to the worker; `id` > 0 pairs it with its reply. */
export type Request = { id: number } & (
  | { op: 'query'; sql: string; params?: unknown[]; tx?: number }
  | { op: 'begin' }
  | { op: 'commit' | 'rollback'; tx: number }
  /** `listen` is chosen by the app's thread, which is then ready for its notices before any comes. */
  | { op: 'listen'; channel: string; listen: number }
  | { op: 'unlisten'; listen: number }
  | { op: 'close' }
);

/** An error's message and its own plain fields (Postgres's `code`, `constraint`, `detail`...). */
export interface ErrorDescription {
  message: string;
  fields: Record<string, string | number | boolean>;
}

/**
 * From the worker: the reply to request `id` (id 0: the worker's start), or a notice for a
 * listen() (`notice`: its `listen`).
 */
export type Reply = { id: number; result: unknown } | { id: number; error: ErrorDescription } | { id: 0; notice: number; payload: string };
