import { describe, expect, it } from 'vitest';
import type { HomeView } from '@slack/types';
import { checkView } from '@fleet-treasury-bot/local-slack';
import { PAYOUT_ACTIONS } from '../../../src/slack/ids.js';
import { buildHomeView, HOME_MAX_BLOCKS, type ViewerHome } from '../../../src/slack/views/home.js';
import { pendingRequest } from '../../support/payout-doubles.js';

const now = new Date('2026-11-21T10:00:00.000Z');
const reading = { balances: { USD: 152_310.75, EUR: 18_204.1 }, readAt: new Date(now.getTime() - 5 * 60_000) };

function viewer(overrides: Partial<ViewerHome> = {}): ViewerHome {
  return {
    kind: 'viewer',
    now,
    balance: { reading, failed: false },
    waiting: { requests: [], total: 0 },
    mine: undefined,
    feed: 'off',
    ledger: 'off',
    buttons: { newPayout: true, export: true },
    ...overrides,
  };
}

const text = (view: HomeView) => JSON.stringify(view.blocks);
const en = { sandbox: false, locale: 'en' as const };

describe('the home view', () => {
  it('shows an outsider only the access message', () => {
    const view = buildHomeView(en, { kind: 'outsider' });
    expect(view.blocks).toHaveLength(1);
    expect(text(view)).toContain("You don't have access");
    expect(text(view)).not.toContain('USD');
  });

  it('shows the balances with their reading time, and the last known ones with their age when the read failed', () => {
    expect(text(buildHomeView(en, viewer()))).toContain('152,310.75 USD');
    const stale = text(buildHomeView(en, viewer({ balance: { reading, failed: true } })));
    expect(stale).toContain('152,310.75 USD');
    expect(stale).toContain('last known balances');
    expect(stale).toContain('5 min ago');
    expect(text(buildHomeView(en, viewer({ balance: { reading: undefined, failed: true } })))).toContain('no balances were read before');
  });

  it('stays within 100 blocks with 60 requests waiting, and says how many more there are and where to find them', () => {
    const requests = Array.from({ length: 60 }, (_, index) => pendingRequest({ id: `PR-${String(index).padStart(6, '0')}`, requestedBy: 'U0REQUESTER' }));
    const mine = Array.from({ length: 10 }, (_, index) =>
      pendingRequest({
        id: `PR-MINE${String(index).padStart(2, '0')}`,
        recipient: { phone: '243812345678', name: '<@U0X> & *bold*'.repeat(8), countryCode: 'CD' } as never,
      }),
    );
    const view = buildHomeView(en, viewer({ waiting: { requests, total: 60 }, mine }));
    expect(view.blocks.length).toBeLessThanOrEqual(HOME_MAX_BLOCKS);
    expect(checkView(view as unknown as Record<string, unknown>)).toEqual([]);
    expect(text(view)).toContain('and 40 more waiting for you: `/fleet payouts` lists them');
    expect(text(view).match(new RegExp(`"action_id":"${PAYOUT_ACTIONS.approve}"`, 'g'))).toHaveLength(20);
    // Names come from people: escaped, never a mention.
    expect(text(view)).not.toContain('<@U0X>');
  });

  it('shows the runway per currency in one block, and stays within 100 blocks with 60 requests waiting and 45 currencies', () => {
    const currencies = Array.from({ length: 45 }, (_, i) => ({
      currency: `C${String(i).padStart(2, '0')}`,
      balanceMinor: 100_000,
      averageDailyNetMinor: -10_000,
      daysLeft: 10,
      zeroDay: '2026-12-01',
      history: [],
    }));
    const runway = {
      known: true as const,
      today: '2026-11-21',
      timeZone: 'UTC',
      windowDays: 14,
      daysRead: 14,
      firstDay: '2026-11-07',
      lastDay: '2026-11-20',
      readAt: now,
      currencies,
    };
    const balances = Object.fromEntries(currencies.map((c) => [c.currency, 1000]));
    const requests = Array.from({ length: 60 }, (_, index) => pendingRequest({ id: `PR-${String(index).padStart(6, '0')}`, requestedBy: 'U0REQUESTER' }));
    const mine = Array.from({ length: 10 }, (_, index) => pendingRequest({ id: `PR-MINE${String(index).padStart(2, '0')}` }));
    const view = buildHomeView(en, viewer({ balance: { reading: { balances, readAt: now }, failed: false }, waiting: { requests, total: 60 }, mine, runway }));
    expect(view.blocks.length).toBeLessThanOrEqual(HOME_MAX_BLOCKS);
    expect(checkView(view as unknown as Record<string, unknown>)).toEqual([]);
    expect(text(view)).toContain('*Runway*');
    expect(text(view)).toContain('*C00* 1,000.00 C00 · -100.00 C00 a day · *10 days left*, zero on Dec 1, 2026');
    expect(text(view)).toContain('35 more currencies');
    expect(text(view)).toContain('PR-MINE09');
    expect(text(buildHomeView(en, viewer({ runway: { known: false, reason: 'ledger_off', windowDays: 14 } })))).toContain('No runway: the ledger is off');
  });

  it('writes everything in French for a French reader', () => {
    const view = text(buildHomeView({ sandbox: true, locale: 'fr' }, viewer({ waiting: { requests: [pendingRequest()], total: 1 } })));
    expect(view).toContain('152\u202f310,75 USD');
    expect(view).toContain('En attente de vous');
    expect(view).toContain('Approuver');
    expect(view).toContain('Actualiser');
  });
});

describe('a possible duplicate waiting for the approver', () => {
  const earlier = { kind: 'request' as const, requestId: 'PR-EARLY1', reference: 'INV-1', state: 'completed' as const };
  const waiting = (locale: 'en' | 'fr') =>
    text(
      buildHomeView(
        { sandbox: false, locale },
        viewer({
          waiting: {
            requests: [pendingRequest({ id: 'PR-AGAIN1' }), pendingRequest({ id: 'PR-OTHER1' })],
            total: 2,
            duplicates: new Map([['PR-AGAIN1', earlier]]),
          },
        }),
      ),
    );

  it('is marked in the list, naming the payout it may repeat, and the others are not', () => {
    const home = waiting('en');
    expect(home).toContain(':warning: *Possible duplicate* of PR-EARLY1');
    expect(home.split('Possible duplicate').length - 1).toBe(1);
    expect(waiting('fr')).toContain(':warning: *Doublon possible* de PR-EARLY1');
  });
});

describe('the count of approvals on the home, in French', () => {
  const approval = (userId: string) => ({ userId, at: now });
  const line = (approvals: ReturnType<typeof approval>[]) =>
    text(
      buildHomeView(
        { sandbox: false, locale: 'fr' },
        viewer({
          waiting: { requests: [pendingRequest({ approvals, requiredApprovals: 2 })], total: 1 },
        }),
      ),
    );

  it('agrees with the number of approvals given, not the number needed', () => {
    expect(line([])).toContain('0 approbation sur 2');
    expect(line([approval('U0ABEL')])).toContain('1 approbation sur 2');
    expect(line([approval('U0ABEL')])).not.toContain('1 approbations');
    expect(line([approval('U0ABEL'), approval('U0ADA')])).toContain('2 approbations sur 2');
  });

  it('reads as English does for an English reader', () => {
    const english = (approvals: ReturnType<typeof approval>[]) =>
      text(
        buildHomeView(
          en,
          viewer({
            waiting: { requests: [pendingRequest({ approvals, requiredApprovals: 2 })], total: 1 },
          }),
        ),
      );
    expect(english([approval('U0ABEL')])).toContain('1 approval of 2');
    expect(english([])).toContain('0 approvals of 2');
  });
});
