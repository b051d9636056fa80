/**
 * The files the demo's page offers under "Example files" for `/fleet reconcile`, each written when
 * downloaded from the sandbox's transactions of the moment: the records file in the app's own
 * layout, and three real-world exports, each read through its profile in example-profiles.ts.
 */
import type { PageSampleFile } from '../workspace/page-server.js';
import { ACCOUNTING_EXPORT_NAME, accountingExportExample } from './accounting-example.js';
import { BANK_STATEMENT_NAME, bankStatementExample } from './bank-statement-example.js';
import { MOBILE_MONEY_STATEMENT_NAME, mobileMoneyStatementExample } from './mobile-money-example.js';
import type { Transaction } from './product.js';
import { RECORDS_EXAMPLE_NAME, recordsExample } from './records-example.js';

export function exampleFiles(transactions: () => Transaction[], now: () => Date): PageSampleFile[] {
  return [
    {
      name: RECORDS_EXAMPLE_NAME,
      description: "The partner's books of the last two days, for /fleet reconcile",
      content: () => recordsExample(transactions(), now()),
    },
    {
      name: BANK_STATEMENT_NAME,
      description: 'A bank statement of the USD account, same days (Windows-1252, semicolons; profile: Bank statement (USD))',
      content: () => bankStatementExample(transactions(), now()),
      charset: 'windows-1252',
    },
    {
      name: MOBILE_MONEY_STATEMENT_NAME,
      description: 'A mobile-money business statement, same days (with Failed and Pending rows; profile: Mobile money statement)',
      content: () => mobileMoneyStatementExample(transactions(), now()),
    },
    {
      name: ACCOUNTING_EXPORT_NAME,
      description: 'An accounting system export, same days (UTF-16, tabs, US dates; profile: Accounting export)',
      content: () => accountingExportExample(transactions(), now()),
      charset: 'utf-16',
    },
  ];
}
