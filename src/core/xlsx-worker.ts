/**
 * The workbook worker thread: reads one workbook's first sheet with exceljs (`xlsx-sheet.ts`) and posts
 * the rows back as plain data, so that exceljs's parse never holds the main thread's event loop. One
 * workbook per thread: it is given in `workerData` and the thread ends once its answer is posted.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFirstSheet, type SheetReading } from './xlsx-sheet.js';

export interface SheetRequest {
  bytes: Uint8Array;
  maxRows: number;
}

const request = workerData as SheetRequest;
// A workbook exceljs cannot read rejects with its own error: it is the workbook's problem, not the thread's.
const answer: SheetReading = await readFirstSheet(request.bytes, { maxRows: request.maxRows }).catch(() => ({
  ok: false,
  problem: { code: 'xlsx_unreadable' },
}));
parentPort?.postMessage(answer);
