/**
 * Small CSV files the app writes for a person or a thread (a bulk file's problems, its rows, its
 * results): every text cell neutralised against spreadsheet formulas, then uploaded through
 * `file-upload.ts` from a temporary file that is removed afterwards.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebClient } from '@slack/web-api';
import { stringify } from 'csv-stringify/sync';
import { EventLoopTurns, Slices, type BackgroundTurns } from '../../runtime/turns.js';
import { neutraliseCell } from '../../ledger/export-csv.js';
import { FileUploadError, uploadFile } from './file-upload.js';

// As the export: CRLF line ends, a field with any line break quoted, a BOM so spreadsheets read UTF-8.
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/**
 * The file's text: a header, then rows, each cell neutralised (`=cmd` becomes `'=cmd`) except in
 * `numberColumns` (by index), which hold amounts the app wrote (`-1250.50`) and stay numbers, as in
 * the export.
 */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly string[]>, numberColumns: readonly number[] = []): string {
  return `\uFEFF${stringify([header.map(neutraliseCell), ...rows.map((row) => neutralised(row, numberColumns))], CSV_OPTIONS)}`;
}

const neutralised = (row: readonly string[], numberColumns: readonly number[]) =>
  row.map((cell, index) => (numberColumns.includes(index) ? cell : neutraliseCell(cell)));

/** Rows turned into text at once by `csvTextInSlices`: well under a millisecond of work. */
const ROWS_AT_ONCE = 25;

/**
 * The same text as `csvText` over `rows.map(cellsOf)`, written a slice at a time: a file of tens of
 * thousands of rows never holds the event loop (every row ends with its delimiter, so the parts join
 * into the one text).
 */
export async function csvTextInSlices<Row>(
  header: readonly string[],
  rows: readonly Row[],
  cellsOf: (row: Row) => readonly string[],
  numberColumns: readonly number[] = [],
  turns: BackgroundTurns = new EventLoopTurns(),
): Promise<string> {
  const slices = new Slices(turns);
  const parts = [csvText(header, [])];
  for (let at = 0; at < rows.length; at += ROWS_AT_ONCE) {
    if (slices.due()) await slices.next();
    parts.push(
      stringify(
        rows.slice(at, at + ROWS_AT_ONCE).map((row) => neutralised(cellsOf(row), numberColumns)),
        CSV_OPTIONS,
      ),
    );
  }
  return parts.join('');
}

export interface CsvFile {
  filename: string;
  title: string;
  comment: string;
  text: string;
}

/** Shares `file` in `channelId` (a DM, or a thread with `threadTs`); resolves with the Slack file id. */
export async function shareCsv(client: WebClient, channelId: string, file: CsvFile, threadTs?: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'fleet-csv-'));
  try {
    const path = join(folder, file.filename);
    await writeFile(path, file.text, 'utf8');
    const { fileId } = await uploadFile(client, {
      path,
      filename: file.filename,
      title: file.title,
      channelId,
      initialComment: file.comment,
      ...(threadTs ? { threadTs } : {}),
    });
    return fileId;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Opens the person's DM with the app and shares `file` there. */
export async function sendCsvToPerson(client: WebClient, userId: string, file: CsvFile): Promise<string> {
  const opened = await client.conversations.open({ users: userId });
  const channelId = opened.channel?.id;
  if (!channelId) throw new FileUploadError('complete', 'channel_not_found');
  return shareCsv(client, channelId, file);
}
