/** Every action_id, block_id and callback_id the app uses, in one place. */

export const COMMAND = '/fleet';

export const ACTIONS = {
  balanceRefresh: 'balance_refresh',
  balanceShare: 'balance_share',
  transactionsPage: 'transactions_page',
  transactionsShare: 'transactions_share',
} as const;

export const BLOCKS = {
  accountActions: 'account_actions',
} as const;
