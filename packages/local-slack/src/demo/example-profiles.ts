/**
 * The import profiles of the demo's three example exports, as plain data (what a team would keep as
 * JSON): each says how its file is written, nothing is guessed from the file. Offered to read, not
 * seeded: a profile is made in Slack's form, and docs/using.md shows all three.
 */
import type { ImportProfile } from './product.js';

/** The demo team's zone, where the bank and the mobile-money provider write their times. */
const KINSHASA = 'Africa/Kinshasa';

/** bank-statement.csv: a Central African bank's statement of a USD account. */
export const BANK_STATEMENT_PROFILE = {
  name: 'Bank statement (USD)',
  delimiter: ';',
  encoding: 'windows-1252',
  // The bank's name, then the account and the period; below the records, the totals.
  skipAbove: 2,
  skipBelow: 1,
  header: true,
  reference: 'Référence',
  date: { column: 'Date opération', format: 'DD/MM/YYYY' },
  timeZone: KINSHASA,
  amount: { layout: 'debit_credit', debit: 'Débit', credit: 'Crédit' },
  numbers: { decimalMark: ',', grouping: ' ' },
  currency: { fixed: 'USD' },
  description: 'Libellé',
} satisfies ImportProfile;

/** mobile-money-statement.csv: a mobile-money provider's business statement. */
export const MOBILE_MONEY_PROFILE = {
  name: 'Mobile money statement',
  delimiter: ',',
  encoding: 'utf-8',
  skipAbove: 0,
  skipBelow: 0,
  header: true,
  reference: 'Receipt No.',
  // `05-Nov-2026 14:05`: the time after the day is read in the profile's zone.
  date: { column: 'Completion Time', format: 'DD-MMM-YYYY' },
  timeZone: KINSHASA,
  amount: { layout: 'flagged', amount: 'Amount', flag: 'Direction', inWords: ['Credit'], outWords: ['Debit'], flagRequired: true },
  numbers: { decimalMark: '.', grouping: ',' },
  currency: { column: 'Currency' },
  status: { column: 'Transaction Status', counted: ['Completed'] },
  description: 'Details',
} satisfies ImportProfile;

/** accounting-export.txt: an accounting system's transaction list saved as "Unicode text". */
export const ACCOUNTING_EXPORT_PROFILE = {
  name: 'Accounting export',
  delimiter: '\t',
  encoding: 'utf-16',
  skipAbove: 0,
  skipBelow: 0,
  header: true,
  reference: 'Num',
  date: { column: 'Date', format: 'MM/DD/YYYY' },
  timeZone: KINSHASA,
  amount: { layout: 'signed', amount: 'Amount' },
  numbers: { decimalMark: '.', grouping: ',' },
  currency: { column: 'Currency' },
  description: 'Description',
  note: 'Memo',
} satisfies ImportProfile;
