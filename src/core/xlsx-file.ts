/**
 * Reads the first worksheet of an Excel workbook (.xlsx) into rows of text cells. The zip is measured
 * first, in slices on the main thread, by inflating it for real and counting (a zip bomb declares small
 * sizes); only a workbook within the limits is handed to exceljs, which parses a workbook in one piece
 * (about half a second for a sheet of 5,000 rows): so it runs in a worker thread (`xlsx-worker.ts`, the
 * cells read by `xlsx-sheet.ts`), one workbook at a time, and only the finished rows come back.
 */
import type { BackgroundTurns } from '../runtime/turns.js';
import { startWorker } from '../runtime/worker-thread.js';
import type { SheetReading, XlsxProblem } from './xlsx-sheet.js';
import type { SheetRequest } from './xlsx-worker.js';

export { cellReference, exactDecimal, XLSX_CELLS_PER_ROW } from './xlsx-sheet.js';
export type { CellProblem, CellProblemCode, TableCell, XlsxProblem, XlsxRow } from './xlsx-sheet.js';

/** The most a workbook may hold once inflated: 20 times the file's own limit, and never more than 50 MiB. */
export const XLSX_MAX_INFLATED_BYTES = 50 * 1024 * 1024;
export const XLSX_INFLATED_PER_FILE_BYTE = 20;
/** Entries in the zip: a workbook of one sheet has about a dozen. */
export const XLSX_MAX_ENTRIES = 500;
/** Compressed bytes inflated per turn: deflate expands at most about 1000 times, so a turn inflates a few MiB at most. */
const PUSH_BYTES = 4 * 1024;

export function inflatedLimit(maxBytes: number): number {
  return Math.min(XLSX_MAX_INFLATED_BYTES, XLSX_INFLATED_PER_FILE_BYTE * maxBytes);
}

/**
 * The zip's entries as its central directory lists them and as its local entries inflate, counted
 * in slices; a problem when either exceeds a limit, or when the two disagree (entries hidden from one reader).
 */
async function measureZip(bytes: Uint8Array, maxInflated: number, turns: BackgroundTurns): Promise<XlsxProblem | undefined> {
  const { Unzip, UnzipInflate, unzipSync } = await import('fflate');
  let listed = 0;
  let declared = 0;
  try {
    // The directory alone: nothing is inflated, every entry is filtered out.
    unzipSync(bytes, {
      filter: (file) => {
        listed += 1;
        declared += file.originalSize;
        return false;
      },
    });
  } catch {
    return { code: 'xlsx_unreadable' };
  }
  if (listed > XLSX_MAX_ENTRIES) return { code: 'xlsx_too_many_entries', max: XLSX_MAX_ENTRIES };
  if (declared > maxInflated) return { code: 'xlsx_too_large', maxBytes: maxInflated };
  let entries = 0;
  let inflated = 0;
  let problem: XlsxProblem | undefined;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    entries += 1;
    if (entries > XLSX_MAX_ENTRIES) {
      problem ??= { code: 'xlsx_too_many_entries', max: XLSX_MAX_ENTRIES };
      return;
    }
    file.ondata = (error, chunk) => {
      if (error) problem ??= { code: 'xlsx_unreadable' };
      inflated += chunk?.length ?? 0;
      if (inflated > maxInflated) {
        problem ??= { code: 'xlsx_too_large', maxBytes: maxInflated };
        file.terminate();
      }
    };
    try {
      file.start();
    } catch {
      // A compression method other than stored or deflate: no workbook uses one.
      problem ??= { code: 'xlsx_unreadable' };
    }
  };
  for (let at = 0; at < bytes.length && problem === undefined; at += PUSH_BYTES) {
    try {
      unzip.push(bytes.subarray(at, at + PUSH_BYTES), at + PUSH_BYTES >= bytes.length);
    } catch {
      problem ??= { code: 'xlsx_unreadable' };
    }
    await turns.nextBackgroundTurn();
  }
  if (problem) return problem;
  return entries === listed ? undefined : { code: 'xlsx_unreadable' };
}

/**
 * The first worksheet's rows that hold anything, as text with each row's number; refused beyond
 * `maxRows` such rows, or `maxRows × XLSX_CELLS_PER_ROW` cells holding anything.
 */
export async function readXlsxRows(bytes: Uint8Array, limits: { maxBytes: number; maxRows: number }, turns: BackgroundTurns): Promise<SheetReading> {
  const measured = await measureZip(bytes, inflatedLimit(limits.maxBytes), turns);
  if (measured) return { ok: false, problem: measured };
  return readSheetInWorker(bytes, { maxRows: limits.maxRows });
}

/** The longest a workbook's worker may read before it is stopped and the workbook refused as unreadable. */
export const XLSX_WORKER_TIMEOUT_MS = 30_000;
/** The worker's heap: exceljs holds the whole workbook, several times its inflated size (at most `XLSX_MAX_INFLATED_BYTES`). */
export const XLSX_WORKER_HEAP_MB = 1024;

// One workbook read at a time, each in a thread of its own that ends after it: two uploads at once
// never hold two workbooks in memory, and a thread's memory goes back when it ends.
let lastRead: Promise<unknown> = Promise.resolve();

/**
 * `bytes` (a zip already measured within the limits) read by exceljs in a worker thread; the rows come
 * back as plain data. A worker that fails, runs out of its heap or runs past `timeoutMs` gives
 * `xlsx_unreadable`, and is stopped: the process goes on.
 */
export function readSheetInWorker(
  bytes: Uint8Array,
  limits: { maxRows: number },
  options: { timeoutMs?: number; heapMb?: number } = {},
): Promise<SheetReading> {
  const read = lastRead.then(() => readInOwnWorker(bytes, limits.maxRows, options.timeoutMs ?? XLSX_WORKER_TIMEOUT_MS, options.heapMb ?? XLSX_WORKER_HEAP_MB));
  lastRead = read;
  return read;
}

function readInOwnWorker(bytes: Uint8Array, maxRows: number, timeoutMs: number, heapMb: number): Promise<SheetReading> {
  // A copy of its own, handed over rather than cloned: the caller's bytes stay the caller's (a Buffer's
  // `slice` would share them, and a Buffer from Node's pool shares its memory with other Buffers).
  const copy = new Uint8Array(bytes);
  const unreadable: SheetReading = { ok: false, problem: { code: 'xlsx_unreadable' } };
  let worker: ReturnType<typeof startWorker>;
  try {
    worker = startWorker(import.meta.url, 'xlsx-worker', {
      workerData: { bytes: copy, maxRows } satisfies SheetRequest,
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
  } catch {
    return Promise.resolve(unreadable);
  }
  let timer: NodeJS.Timeout | undefined;
  return new Promise<SheetReading>((resolve) => {
    timer = setTimeout(() => resolve(unreadable), timeoutMs);
    worker.once('message', (answer: SheetReading) => resolve(answer));
    // Out of its heap, an exception, or an exit without an answer: the workbook is refused, the process goes on.
    worker.once('error', () => resolve(unreadable));
    worker.once('messageerror', () => resolve(unreadable));
    worker.once('exit', () => resolve(unreadable));
  }).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}
