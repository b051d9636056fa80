/**
 * The demo's example bank statement (profile: BANK_STATEMENT_PROFILE): a Central African bank's
 * statement of the partner's USD account for the period of the example records, in Windows-1252
 * with semicolons, as its online banking exports it. Every USD transaction of the sandbox in those
 * days is a line with its reference, day and amount, but for the first credit: the bank wrote the
 * transfer, its commission and the commission's VAT as three lines under one reference, summing to
 * the fleet account's credit. One line the fleet account never saw: the account-keeping fee.
 */
import { amountNoEntryHas, exampleDays, periodEntries, windows1252, writeAmount, writeCell, type PeriodEntry } from './example-period.js';
import type { Transaction } from './product.js';

export const BANK_STATEMENT_NAME = 'bank-statement.csv';

/** The bank's commission on an incoming transfer (USD 5.00) and the VAT on it (16 %), in cents. */
export const TRANSFER_COMMISSION_MINOR = 500;
export const COMMISSION_VAT_MINOR = 80;
/** The monthly account-keeping fee (USD 15.00 out), moved by a cent until no USD transaction has that amount. */
const ACCOUNT_FEE_MINOR = -1500;

const NUMBERS = { decimalMark: ',', grouping: ' ' } as const;

/** One line of the statement: its day, words, bank reference and signed amount in cents. */
interface StatementLine {
  day: string;
  label: string;
  reference: string;
  minor: number;
}

const frenchDay = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** The merchant of a card funding, as the API's description names it after its dash. */
function merchantOf(transaction: Transaction): string {
  return transaction.description.split(' — ').slice(1).join(' — ') || transaction.description;
}

function labelFor(entry: PeriodEntry): string {
  if (entry.transaction.type === 'B2B_JIT_FUNDING') return `Paiement carte — ${merchantOf(entry.transaction)}`;
  return entry.minor > 0 ? 'Virement reçu — retrait de portefeuille' : 'Virement émis — paiement client';
}

/** The statement's lines, in the order written: the period's USD transactions oldest first, the first credit as three lines, the fee last. */
function bankStatementLines(transactions: readonly Transaction[], now: Date): StatementLine[] {
  const entries = periodEntries(transactions, now).filter((entry) => entry.transaction.currency === 'USD');
  const grouped = entries.find((entry) => entry.minor > 0);
  const lines: StatementLine[] = [];
  for (const entry of entries) {
    const { reference } = entry.transaction;
    if (entry !== grouped) {
      lines.push({ day: entry.day, label: labelFor(entry), reference, minor: entry.minor });
      continue;
    }
    // The bank credits the whole transfer, then takes its commission and the VAT on it.
    lines.push(
      { day: entry.day, label: labelFor(entry), reference, minor: entry.minor + TRANSFER_COMMISSION_MINOR + COMMISSION_VAT_MINOR },
      { day: entry.day, label: 'Commission sur virement reçu', reference, minor: -TRANSFER_COMMISSION_MINOR },
      { day: entry.day, label: 'TVA 16 % sur commission', reference, minor: -COMMISSION_VAT_MINOR },
    );
  }
  const lastDay = exampleDays(now)[1];
  lines.push({
    day: lastDay,
    label: 'Frais de tenue de compte',
    reference: `FTC${lastDay.replace(/-/g, '')}`,
    minor: amountNoEntryHas(ACCOUNT_FEE_MINOR, 'USD', transactions),
  });
  return lines;
}

/** The statement's bytes in Windows-1252. */
export function bankStatementExample(transactions: readonly Transaction[], now: Date): Uint8Array {
  const [first, last] = exampleDays(now);
  const lines = bankStatementLines(transactions, now);
  // Spreadsheets pad every line to the table's six columns.
  const row = (cells: string[]) => [...cells, ...Array<string>(6 - cells.length).fill('')].map((text) => writeCell(text, ';')).join(';');
  const amount = (minor: number) => (minor === 0 ? '' : writeAmount(Math.abs(minor), 'USD', NUMBERS));
  const debits = lines.reduce((sum, line) => sum + Math.min(line.minor, 0), 0);
  const credits = lines.reduce((sum, line) => sum + Math.max(line.minor, 0), 0);
  const text = [
    row(['BANQUE DU FLEUVE S.A. — Relevé de compte']),
    row([`Compte n° 00012-01234567801-27 USD — Période du ${frenchDay(first)} au ${frenchDay(last)}`]),
    row(['Date opération', 'Date valeur', 'Libellé', 'Référence', 'Débit', 'Crédit']),
    ...lines.map((line) =>
      row([frenchDay(line.day), frenchDay(line.day), line.label, line.reference, amount(Math.min(line.minor, 0)), amount(Math.max(line.minor, 0))]),
    ),
    row(['Totaux des mouvements', '', '', '', amount(debits), amount(credits)]),
  ];
  return windows1252(`${text.join('\r\n')}\r\n`);
}
