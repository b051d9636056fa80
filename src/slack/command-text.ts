/** Reads the text after `/fleet`: the subcommand's word and its arguments, and the transaction list's options. */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../account/account-reader.js';

/** The first word in lower case (`help` when there is none) and the words after it as typed. */
export function splitFleetCommand(text: string): { word: string; args: string[] } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  return { word: words[0]?.toLowerCase() ?? 'help', args: words.slice(1) };
}

export type TransactionArgs = { ok: true; page: number; pageSize: number } | { ok: false; message: string };

const TRANSACTIONS_USAGE = 'Try `/fleet transactions`, `/fleet transactions 3` (page 3) or `/fleet transactions 2 25` (page 2, 25 per page).';

/** Accepts `[page] [size]` as bare numbers or as `page N` / `size N` / `page=N` / `size=N`. */
export function parseTransactionArgs(args: string[]): TransactionArgs {
  const named: Record<string, string> = {};
  const bare: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const word = (args[index] ?? '').toLowerCase();
    const pair = /^(page|size|per_page)=(.*)$/.exec(word);
    if (pair) named[pair[1] === 'per_page' ? 'size' : pair[1]!] = pair[2] ?? '';
    else if (word === 'page' || word === 'size') named[word] = (args[++index] ?? '').toLowerCase();
    else bare.push(word);
  }
  const pageText = named.page ?? bare[0];
  const sizeText = named.size ?? bare[1];
  if (bare.length > 2 || (named.page !== undefined && bare.length > 1)) {
    return { ok: false, message: `I could not read those options. ${TRANSACTIONS_USAGE}` };
  }
  const page = pageText === undefined ? 1 : wholeNumber(pageText);
  if (page === undefined || page < 1) {
    return { ok: false, message: `The page number must be a whole number from 1. ${TRANSACTIONS_USAGE}` };
  }
  const pageSize = sizeText === undefined ? DEFAULT_PAGE_SIZE : wholeNumber(sizeText);
  if (pageSize === undefined || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    return { ok: false, message: `The page size must be a whole number from 1 to ${MAX_PAGE_SIZE}. ${TRANSACTIONS_USAGE}` };
  }
  return { ok: true, page, pageSize };
}

function wholeNumber(text: string): number | undefined {
  return /^\d{1,6}$/.test(text) ? Number(text) : undefined;
}
