import { describe, expect, it } from 'vitest';
import { splitFleetCommand } from '../../src/slack/command-text.js';
import { SubcommandRegistry, type Subcommand } from '../../src/slack/subcommands.js';
import { textsFor } from '../../src/i18n/index.js';

function subcommand(name: string, aliases: string[] = []): Subcommand {
  return { name, aliases, help: () => [{ usage: `/fleet ${name}`, description: `The ${name}.` }], run: async () => undefined };
}

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
    expect(registry.help(textsFor('en')).map((entry) => entry.usage)).toEqual(['/fleet balance', '/fleet transactions', '/fleet help']);
  });

  it('refuses two subcommands answering to the same word', () => {
    expect(() => new SubcommandRegistry([balance, subcommand('ballast', ['bal'])])).toThrow('"bal"');
  });
});
