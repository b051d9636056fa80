/** The `/fleet transactions` reply: one page of the newest-first list with Previous and Next. */
import type { Button, KnownBlock } from '@slack/types';
import type { TransactionPage } from '../../account/account-reader.js';
import type { Transaction } from '../../fleet/schemas.js';
import { formatAmount } from '../../money.js';
import { ACTIONS, BLOCKS } from '../ids.js';
import type { Reply } from './common.js';
import { codeSpan, escapeWithin, footer, mentionUser, sandboxMarked, slackDate, type Surface } from './text.js';

/** What a paging button carries: only where to go, never who may look (checked on every click). */
export interface PageRequest {
  page: number;
  pageSize: number;
}

export function encodePageRequest(request: PageRequest): string {
  return JSON.stringify({ page: request.page, size: request.pageSize });
}

// Slack refuses messages whose blocks carry much more than ~12k characters: long descriptions
// share a budget across the page, and every other field from the API has its own cap (after escaping),
// so that 25 rows of the longest values stay near 10k.
const DESCRIPTION_BUDGET = 4000;
const REFERENCE_MAX = 60;
const WORD_MAX = 30;
const AMOUNT_MAX = 40;

export function transactionLine(tx: Transaction, descriptionMax = 500): string {
  const credit = tx.amount >= 0;
  const marker = credit ? ':large_green_circle:' : ':red_circle:';
  const amount = escapeWithin(formatAmount(tx.amount, tx.currency, { signed: true }), AMOUNT_MAX, { oneLine: true });
  const description = tx.description ? `\n${escapeWithin(tx.description, descriptionMax)}` : '';
  const word = (text: string) => escapeWithin(text, WORD_MAX, { oneLine: true });
  return `${marker} *${amount}* · ${word(tx.type)} · ${word(tx.status)}${description}\n${codeSpan(tx.reference, REFERENCE_MAX)} · ${slackDate(tx.date)}`;
}

export function buildTransactionsMessage(surface: Surface, page: TransactionPage, options: { sharedBy?: string } = {}): Reply {
  const last = page.firstItem + page.transactions.length - 1;
  const range = page.transactions.length === 0
    ? page.page === 1
      ? 'The fleet account has no transactions yet.'
      : `Page ${page.page} is empty: there are no transactions past item ${(page.page - 1) * page.pageSize}.`
    : `Showing ${page.firstItem}–${last}, newest first (page ${page.page}, ${page.pageSize} per page).`;
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: 'Fleet account transactions' } },
    { type: 'section', text: { type: 'mrkdwn', text: range } },
  ];
  const descriptionMax = Math.min(500, Math.floor(DESCRIPTION_BUDGET / Math.max(page.transactions.length, 1)));
  for (const tx of page.transactions) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: transactionLine(tx, descriptionMax) } });
  }
  const readAt = `Read ${slackDate(page.readAt)}`;
  blocks.push(footer(surface, options.sharedBy ? `${readAt} · shared by ${mentionUser(options.sharedBy)}` : readAt));
  if (!options.sharedBy) {
    const buttons: Button[] = [];
    if (page.page > 1) buttons.push(pageButton('Previous', { page: page.page - 1, pageSize: page.pageSize }, 'previous'));
    if (page.hasNext) buttons.push(pageButton('Next', { page: page.page + 1, pageSize: page.pageSize }, 'next'));
    if (page.transactions.length > 0) {
      buttons.push({
        type: 'button',
        action_id: ACTIONS.transactionsShare,
        text: { type: 'plain_text', text: 'Share in channel' },
        value: encodePageRequest(page),
      });
    }
    if (buttons.length > 0) blocks.push({ type: 'actions', block_id: BLOCKS.accountActions, elements: buttons });
  }
  const text = `${sandboxMarked(surface, 'Fleet account transactions')}: ${range}`;
  return { text, blocks };
}

function pageButton(label: string, request: PageRequest, direction: string): Button {
  return {
    type: 'button',
    // Two buttons with one handler need distinct action_ids within a block.
    action_id: `${ACTIONS.transactionsPage}:${direction}`,
    text: { type: 'plain_text', text: label },
    value: encodePageRequest(request),
  };
}
