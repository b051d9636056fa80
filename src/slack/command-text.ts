/** Parses the text after `/fleet` into a subcommand and its arguments. */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../account/account-reader.js';

export type FleetCommand =
  | { name: 'help'; unknown?: string }
  | { name: 'balance' }
  | { name: 'transactions'; page: number; pageSize: number }
  | { name: 'invalid'; message: string }
  | { name: 'other'; subcommand: string; args: string[] };

// A Map, not an object: `/fleet constructor` or `/fleet __proto__` must not find Object.prototype's members.
const ALIASES = new Map([['tx', 'transactions'], ['txs', 'transactions'], ['bal', 'balance']]);

export function parseFleetCommand(text: string): FleetCommand {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.toLowerCase() ?? 'help';
  const name = ALIASES.get(first) ?? first;
  const args = words.slice(1);
  switch (name) {
    case 'help':
      return { name: 'help' };
    case 'balance':
      return { name: 'balance' };
    case 'transactions':
      return parseTransactionArgs(args);
    default:
      return { name: 'other', subcommand: name, args };
  }
}

const TRANSACTIONS_USAGE = 'Try `/fleet transactions`, `/fleet transactions 3` (page 3) or `/fleet transactions 2 25` (page 2, 25 per page).';

/** Accepts `[page] [size]` as bare numbers or as `page N` / `size N` / `page=N` / `size=N`. */
function parseTransactionArgs(args: string[]): FleetCommand {
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
    return { name: 'invalid', message: `I could not read those options. ${TRANSACTIONS_USAGE}` };
  }
  const page = pageText === undefined ? 1 : wholeNumber(pageText);
  if (page === undefined || page < 1) {
    return { name: 'invalid', message: `The page number must be a whole number from 1. ${TRANSACTIONS_USAGE}` };
  }
  const pageSize = sizeText === undefined ? DEFAULT_PAGE_SIZE : wholeNumber(sizeText);
  if (pageSize === undefined || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    return { name: 'invalid', message: `The page size must be a whole number from 1 to ${MAX_PAGE_SIZE}. ${TRANSACTIONS_USAGE}` };
  }
  return { name: 'transactions', page, pageSize };
}

function wholeNumber(text: string): number | undefined {
  return /^\d{1,6}$/.test(text) ? Number(text) : undefined;
}
