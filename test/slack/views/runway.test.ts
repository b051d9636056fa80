import { describe, expect, it } from 'vitest';
import { checkMessage } from '@fleet-treasury-bot/local-slack';
import type { Runway } from '../../../src/runway/index.js';
import { buildRunwayAlertMessage, buildRunwayMessage } from '../../../src/slack/views/runway.js';

const en = { sandbox: false, locale: 'en' as const };
const fr = { sandbox: false, locale: 'fr' as const };

const runway = (currencies: Extract<Runway, { known: true }>['currencies'], daysRead = 14): Runway => ({
  known: true,
  today: '2026-11-26',
  timeZone: 'Africa/Kinshasa',
  windowDays: 14,
  daysRead,
  firstDay: daysRead === 14 ? '2026-11-12' : '2026-11-23',
  lastDay: '2026-11-25',
  readAt: new Date('2026-11-26T09:00:00Z'),
  currencies,
});
const eur = { currency: 'EUR', balanceMinor: 3_172_309, averageDailyNetMinor: -291_723.4, daysLeft: 10.87, zeroDay: '2026-12-06', history: [] };
const usd = { currency: 'USD', balanceMinor: 18_898_517, averageDailyNetMinor: 105_030, history: [] };

describe('the runway reply', () => {
  it("writes each currency's balance, daily net flow, days left and zero day, the window and its time zone", () => {
    const reply = buildRunwayMessage(en, runway([eur, usd]));
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain('*EUR* 31,723.09 EUR · -2,917.23 EUR a day · *10 days left*, zero on Dec 6, 2026');
    expect(text).toContain('*USD* 188,985.17 USD · +1,050.30 USD a day · not falling');
    expect(text).toContain('last 14 whole days (Nov 12, 2026 – Nov 25, 2026), days in Africa/Kinshasa');
    expect(reply.text).toContain('EUR');
  });

  it('says where the chart goes when one follows, and nothing of it otherwise', () => {
    expect(JSON.stringify(buildRunwayMessage(en, runway([eur]), { chartInDm: true }).blocks)).toContain(
      'The chart follows in your direct messages with the app.',
    );
    expect(JSON.stringify(buildRunwayMessage(fr, runway([eur]), { chartInDm: true }).blocks)).toContain(
      'Le graphique suit dans vos messages directs avec l’app.',
    );
    expect(JSON.stringify(buildRunwayMessage(en, runway([eur])).blocks)).not.toContain('chart');
  });

  it('says how many days a short ledger held', () => {
    expect(JSON.stringify(buildRunwayMessage(en, runway([eur], 3)).blocks)).toContain('The ledger holds only 3 whole days, not the 14 of the window');
  });

  it('writes French the French way', () => {
    const text = JSON.stringify(buildRunwayMessage(fr, runway([eur])).blocks);
    expect(text).toContain('*EUR* 31\u202f723,09 EUR · -2\u202f917,23 EUR par jour · *10 jours restants*, à zéro le 6 déc. 2026');
  });

  it('says why there is no figure', () => {
    expect(buildRunwayMessage(en, { known: false, reason: 'ledger_off', windowDays: 14 }).text).toContain('the ledger is off');
    expect(buildRunwayMessage(fr, { known: false, reason: 'no_whole_day', windowDays: 14 }).text).toContain('aucun jour entier');
  });

  it("stays within Block Kit's limits with 60 currencies whose codes hold markup", () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ ...eur, currency: `<!here>${i}*&` }));
    const reply = buildRunwayMessage(en, runway(many));
    expect(checkMessage(reply.blocks, reply.text)).toEqual([]);
    expect(JSON.stringify(reply.blocks)).not.toContain('<!here>');
    expect(JSON.stringify(reply.blocks)).toContain('and 20 more currencies');
  });

  it('words the alert on the way down and on the way back', () => {
    expect(buildRunwayAlertMessage(en, { kind: 'runway_low', currency: { ...eur, daysLeft: 4.2 }, alertDays: 7 }).text).toBe(
      ':warning: *EUR* lasts *4 days* at this pace, below the 7-day line: 31,723.09 EUR, -2,917.23 EUR a day, zero on Dec 6, 2026.',
    );
    expect(buildRunwayAlertMessage(en, { kind: 'runway_recovered', currency: usd, alertDays: 7 }).text).toBe(
      ':white_check_mark: *USD* is back above the 7-day line: not falling.',
    );
    expect(buildRunwayAlertMessage(fr, { kind: 'runway_recovered', currency: eur, alertDays: 7 }).text).toBe(
      ':white_check_mark: *EUR* repasse au-dessus du seuil de 7 jours : 10 jours restants à ce rythme.',
    );
  });
});
