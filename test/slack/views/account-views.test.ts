import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/fleet/schemas.js';
import { buildBalanceMessage } from '../../../src/slack/views/balance.js';
import { buildHelpMessage, type HelpEntry } from '../../../src/slack/views/help.js';
import { buildTransactionsMessage } from '../../../src/slack/views/transactions.js';
import { checkMessage } from '@fleet-treasury-bot/local-slack';

const readAt = new Date('2026-11-21T10:00:00.000Z');

function tx(index: number, overrides: Partial<Transaction> = {}): Transaction {
  return {
    reference: `TXN-${index}`,
    type: index % 2 ? 'PAYMENT' : 'B2B_JIT_FUNDING',
    amount: index % 2 ? 150.5 : -20,
    currency: 'USD',
    description: `Entry ${index}`,
    date: new Date(readAt.getTime() - index * 60_000).toISOString(),
    status: 'Completed',
    ...overrides,
  };
}

const texts = (reply: { blocks: unknown[] }) => JSON.stringify(reply.blocks);

describe('balance message', () => {
  it('shows every currency with its decimals, the reading time and Refresh', () => {
    const reply = buildBalanceMessage({ sandbox: false, locale: 'en' as const }, { balances: { USD: 1234.5, CDF: 25000000, EUR: 0.1 }, readAt });
    expect(reply.text).toBe('Fleet account balance: CDF: 25,000,000.00 CDF, EUR: 0.10 EUR, USD: 1,234.50 USD');
    expect(texts(reply)).toContain(`<!date^${readAt.getTime() / 1000}^`);
    expect(texts(reply)).toContain('"action_id":"balance_refresh"');
    expect(texts(reply)).not.toContain('SANDBOX');
    expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
  });

  it('says SANDBOX when the data comes from the sandbox', () => {
    const reply = buildBalanceMessage({ sandbox: true, locale: 'en' as const }, { balances: { USD: 1 }, readAt });
    expect(reply.text).toContain('SANDBOX');
    expect(texts(reply)).toContain('SANDBOX');
  });

  it('carries the sealed figures in Share, and offers no Share without them', () => {
    const reply = buildBalanceMessage({ sandbox: false, locale: 'en' as const }, { balances: { USD: 1 }, readAt }, { shareValue: 'abc.def' });
    expect(texts(reply)).toContain('"action_id":"balance_share","text":{"type":"plain_text","text":"Share in channel"},"value":"abc.def"');
    expect(texts(buildBalanceMessage({ sandbox: false, locale: 'en' as const }, { balances: { USD: 1 }, readAt }))).not.toContain('balance_share');
  });

  it('drops the buttons and names the sharer when shared', () => {
    const reply = buildBalanceMessage({ sandbox: false, locale: 'en' as const }, { balances: { USD: 1 }, readAt }, { sharedBy: 'U0ALICE' });
    expect(texts(reply)).toContain('shared by <@U0ALICE>');
    expect(texts(reply)).not.toContain('balance_refresh');
  });

  it.each(['en', 'fr'] as const)('keeps within the field limit with many currencies (%s)', (locale) => {
    const balances = Object.fromEntries(Array.from({ length: 23 }, (_, i) => [`C${String.fromCharCode(65 + i)}X`, i]));
    const reply = buildBalanceMessage({ sandbox: false, locale }, { balances, readAt });
    expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
  });

  it.each(['en', 'fr'] as const)("keeps header, buttons and footer within Slack's limits on the sandbox, shared or not (%s)", (locale) => {
    const balances = { USD: 999_999_999_999.99, ['<&'.repeat(500)]: 1 };
    for (const options of [{}, { sharedBy: 'U0ALICE' }]) {
      const reply = buildBalanceMessage({ sandbox: true, locale }, { balances, readAt }, options);
      expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
    }
    const none = buildBalanceMessage({ sandbox: true, locale }, { balances: {}, readAt });
    expect(checkMessage(none.blocks, none.text)).toEqual([]);
  });

  it('writes the balance in French, amounts the French way, for a French reader', () => {
    const reply = buildBalanceMessage(
      { sandbox: false, locale: 'fr' as const },
      { balances: { USD: 125430.57, CDF: 25000000 }, readAt },
      { shareValue: 'sealed' },
    );
    expect(reply.text).toBe('Solde du compte de flotte : CDF : 25\u202F000\u202F000,00 CDF, USD : 125\u202F430,57 USD');
    expect(texts(reply)).toContain('"text":"Solde du compte de flotte"');
    expect(texts(reply)).toContain('*USD*\\n125\u202F430,57 USD');
    expect(texts(reply)).toContain('"text":"Actualiser"');
    expect(texts(reply)).toContain('"text":"Partager dans le canal"');
    expect(texts(reply)).toContain(`Lu <!date^${readAt.getTime() / 1000}^{date_short_pretty} {time_secs}|21/11/2026 10:00:00 UTC>`);
    const shared = buildBalanceMessage({ sandbox: false, locale: 'fr' as const }, { balances: { USD: 1 }, readAt }, { sharedBy: 'U0ALICE' });
    expect(texts(shared)).toContain('partagé par <@U0ALICE>');
    const none = buildBalanceMessage({ sandbox: false, locale: 'fr' as const }, { balances: {}, readAt });
    expect(none.text).toBe('Solde du compte de flotte : aucun');
    expect(texts(none)).toContain('L’API Fleet n’a renvoyé aucun solde.');
  });
});

describe('transactions message', () => {
  it('shows which items it holds and each row with sign, type, status, reference and localised date', () => {
    const page = { page: 2, pageSize: 10, firstItem: 11, transactions: [tx(1), tx(2)], hasNext: true, readAt };
    const reply = buildTransactionsMessage({ sandbox: false, locale: 'en' as const }, page);
    expect(reply.text).toContain('Showing 11–12, newest first (page 2, 10 per page)');
    const blocks = texts(reply);
    expect(blocks).toContain('*+150.50 USD* · PAYMENT · Completed');
    expect(blocks).toContain('*-20.00 USD* · B2B_JIT_FUNDING · Completed');
    expect(blocks).toContain('`TXN-1`');
    expect(blocks).toContain(`<!date^${Math.floor(Date.parse(tx(1).date) / 1000)}^`);
    expect(blocks).toContain('"text":"Previous"');
    expect(blocks).toContain('"text":"Next"');
  });

  it('escapes descriptions so they cannot ping the channel or disguise a link', () => {
    const page = {
      page: 1,
      pageSize: 10,
      firstItem: 1,
      transactions: [tx(1, { description: '<!channel> pay <http://evil|here> & now' })],
      hasNext: false,
      readAt,
    };
    const blocks = texts(buildTransactionsMessage({ sandbox: false, locale: 'en' as const }, page));
    expect(blocks).toContain('&lt;!channel&gt; pay &lt;http://evil|here&gt; &amp; now');
    expect(blocks).not.toContain('<!channel>');
  });

  it('says so when a page is empty and offers no Next', () => {
    const empty = buildTransactionsMessage(
      { sandbox: false, locale: 'en' as const },
      { page: 40, pageSize: 10, firstItem: 0, transactions: [], hasNext: false, readAt },
    );
    expect(empty.text).toContain('Page 40 is empty');
    expect(texts(empty)).not.toContain('"Next"');
    const none = buildTransactionsMessage(
      { sandbox: false, locale: 'en' as const },
      { page: 1, pageSize: 10, firstItem: 0, transactions: [], hasNext: false, readAt },
    );
    expect(none.text).toContain('no transactions yet');
  });

  it('stays within Block Kit limits with 25 long rows', () => {
    const rows = Array.from({ length: 25 }, (_, i) => tx(i, { description: 'x'.repeat(5000) }));
    const reply = buildTransactionsMessage(
      { sandbox: true, locale: 'en' as const },
      { page: 1, pageSize: 25, firstItem: 1, transactions: rows, hasNext: true, readAt },
    );
    expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
  });
});

describe('help message', () => {
  const entries: HelpEntry[] = [
    { usage: '/fleet balance', description: 'The fleet account balance in every currency.' },
    { usage: '/fleet transactions [page] [size]', description: 'Transactions, newest first.' },
  ];

  it('lists what the bot can do and names an unknown subcommand safely', () => {
    const reply = buildHelpMessage({ sandbox: false, locale: 'en' as const }, entries, '<!here>');
    expect(reply.text).toContain("I don't know `&lt;!here&gt;`");
    expect(reply.text).toContain('/fleet balance');
    expect(reply.text).toContain('/fleet transactions');
  });

  it('speaks French to a French reader', () => {
    const reply = buildHelpMessage({ sandbox: false, locale: 'fr' as const }, entries, 'bonjour');
    expect(reply.text).toMatch(/^Je ne connais pas `bonjour`\. Voici ce que je sais faire :/);
    expect(texts(reply)).toContain('ne sont visibles que par vous');
    expect(buildHelpMessage({ sandbox: false, locale: 'fr' as const }, entries).text).toMatch(/^Voici ce que je sais faire :/);
  });

  it.each(['en', 'fr'] as const)("keeps every entry and stays within Slack's limits however long the help is (%s)", (locale) => {
    const many = Array.from({ length: 15 }, (_, i) => ({ usage: `/fleet word${i}`, description: `${'é'.repeat(350)} ${i}` }));
    const reply = buildHelpMessage({ sandbox: true, locale }, many, '<'.repeat(900));
    expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
    for (let i = 0; i < 15; i += 1) expect(texts(reply)).toContain(`/fleet word${i}\``);
  });
});
