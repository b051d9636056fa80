import { describe, expect, it } from 'vitest';
import { audiencesOf, isIn, splitFleetCommand, SubcommandRegistry, type Audience, type Subcommand } from '../../src/slack/subcommands.js';
import { textsFor } from '../../src/i18n/index.js';

function subcommand(name: string, aliases: string[] = [], more: Partial<Subcommand> = {}): Subcommand {
  return { name, aliases, help: () => [{ usage: `/fleet ${name}`, description: `The ${name}.` }], run: async () => undefined, ...more };
}

const EVERYONE = new Set<Audience>(['everyone', 'viewers', 'requesters', 'requesters-and-approvers']);

describe('splitFleetCommand', () => {
  it('reads an empty command as help, and the first word in lower case', () => {
    expect(splitFleetCommand('')).toEqual({ word: 'help', args: [] });
    expect(splitFleetCommand('  HELP ')).toEqual({ word: 'help', args: [] });
  });

  it('passes the words after the first on as typed', () => {
    expect(splitFleetCommand('Payout mobile 243812345678 150 USD')).toEqual({
      word: 'payout',
      args: ['mobile', '243812345678', '150', 'USD'],
    });
  });
});

describe('SubcommandRegistry', () => {
  const balance = subcommand('balance', ['bal']);
  const transactions = subcommand('transactions', ['tx', 'txs']);
  const registry = new SubcommandRegistry([balance, transactions, subcommand('help')]);

  it('finds a subcommand by its name or an alias', () => {
    expect(registry.find('balance')).toBe(balance);
    expect(registry.find('bal')).toBe(balance);
    expect(registry.find('tx')).toBe(transactions);
    expect(registry.find('launch')).toBeUndefined();
  });

  it('treats names of built-in object properties as unknown subcommands, not as aliases', () => {
    for (const word of ['constructor', '__proto__', 'tostring', 'hasownproperty', 'valueof']) {
      expect(registry.find(word)).toBeUndefined();
    }
  });

  it('builds help from every subcommand, in the order they were registered', () => {
    expect(registry.help(textsFor('en'), 'en', EVERYONE).map((entry) => entry.usage)).toEqual(['/fleet balance', '/fleet transactions', '/fleet help']);
  });

  describe('in two languages', () => {
    const solde = subcommand('balance', ['bal'], { localNames: { fr: 'solde' }, audience: 'viewers' });
    const payout = subcommand('payout', ['virement'], {
      localNames: { fr: 'paiement' },
      audience: 'requesters',
      help: () => [
        { usage: '/fleet payout [mobile|bank]', description: 'A payout.' },
        { usage: '/fleet payouts', description: 'Not this one.' },
      ],
    });
    const ledger = subcommand('ledger', [], { localNames: { fr: 'registre' }, help: () => [{ usage: '/fleet registre', description: 'Already French.' }] });
    const both = new SubcommandRegistry([solde, payout, ledger]);

    it('finds a subcommand by its French name as well as its English one and its aliases', () => {
      for (const word of ['balance', 'bal', 'solde']) expect(both.find(word)).toBe(solde);
      for (const word of ['payout', 'paiement', 'virement']) expect(both.find(word)).toBe(payout);
      expect(both.find('registre')).toBe(ledger);
    });

    it("lists each subcommand under its name in the reader's language, keeping what follows the name", () => {
      expect(both.help(textsFor('fr'), 'fr', EVERYONE).map((entry) => entry.usage)).toEqual([
        '/fleet solde',
        '/fleet paiement [mobile|bank]',
        '/fleet payouts',
        '/fleet registre',
      ]);
      expect(both.help(textsFor('en'), 'en', EVERYONE).map((entry) => entry.usage)).toEqual([
        '/fleet balance',
        '/fleet payout [mobile|bank]',
        '/fleet payouts',
        '/fleet registre',
      ]);
    });

    it('lists only the subcommands the reader may use', () => {
      expect(both.help(textsFor('en'), 'en', new Set<Audience>(['everyone'])).map((entry) => entry.usage)).toEqual(['/fleet registre']);
      expect(both.help(textsFor('en'), 'en', new Set<Audience>(['everyone', 'viewers'])).map((entry) => entry.usage)).toEqual([
        '/fleet balance',
        '/fleet registre',
      ]);
    });

    it('refuses a French name that another subcommand already answers to', () => {
      expect(() => new SubcommandRegistry([solde, subcommand('saldo', [], { localNames: { fr: 'solde' } })])).toThrow('"solde"');
    });
  });

  it('places approvers who may not request among those who may see payouts, but not among requesters', async () => {
    const audiences = await audiencesOf('U0ABEL', {
      view: () => Promise.resolve(false),
      request: () => Promise.resolve(false),
      approve: () => Promise.resolve(true),
    });
    expect([...audiences].sort()).toEqual(['everyone', 'requesters-and-approvers']);
  });

  it('refuses two subcommands answering to the same word', () => {
    expect(() => new SubcommandRegistry([balance, subcommand('ballast', ['bal'])])).toThrow('"bal"');
  });

  it('asks only the lists an audience names, and treats them as separate lists, not a ladder', async () => {
    const asked: string[] = [];
    const approverOnly = {
      view: () => {
        asked.push('viewers');
        return Promise.resolve(false);
      },
      request: () => {
        asked.push('requesters');
        return Promise.resolve(false);
      },
      approve: () => {
        asked.push('approvers');
        return Promise.resolve(true);
      },
    };
    expect(await isIn('everyone', 'U0ABEL', approverOnly)).toBe(true);
    expect(asked).toEqual([]);
    expect(await isIn('viewers', 'U0ABEL', approverOnly)).toBe(false);
    expect(await isIn('requesters', 'U0ABEL', approverOnly)).toBe(false);
    expect(await isIn('requesters-and-approvers', 'U0ABEL', approverOnly)).toBe(true);
    expect(asked).toEqual(['viewers', 'requesters', 'requesters', 'approvers']);
  });
});
