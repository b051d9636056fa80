import { describe, expect, it } from 'vitest';
import { parseFleetCommand } from '../../src/slack/command-text.js';

describe('parseFleetCommand', () => {
  it('shows help for an empty command and for help', () => {
    expect(parseFleetCommand('')).toEqual({ name: 'help' });
    expect(parseFleetCommand('  HELP ')).toEqual({ name: 'help' });
  });

  it('reads balance and its alias', () => {
    expect(parseFleetCommand('balance')).toEqual({ name: 'balance' });
    expect(parseFleetCommand('bal')).toEqual({ name: 'balance' });
  });

  it('reads the transaction page and size as bare numbers or named options', () => {
    expect(parseFleetCommand('transactions')).toEqual({ name: 'transactions', page: 1, pageSize: 10 });
    expect(parseFleetCommand('tx 3')).toEqual({ name: 'transactions', page: 3, pageSize: 10 });
    expect(parseFleetCommand('tx 2 25')).toEqual({ name: 'transactions', page: 2, pageSize: 25 });
    expect(parseFleetCommand('transactions page 4 size 5')).toEqual({ name: 'transactions', page: 4, pageSize: 5 });
    expect(parseFleetCommand('transactions size=20')).toEqual({ name: 'transactions', page: 1, pageSize: 20 });
  });

  it('refuses a page size above 25 or a page below 1 with a usage hint', () => {
    expect(parseFleetCommand('tx 1 26')).toMatchObject({ name: 'invalid', message: expect.stringContaining('from 1 to 25') });
    expect(parseFleetCommand('tx 0')).toMatchObject({ name: 'invalid', message: expect.stringContaining('from 1') });
    expect(parseFleetCommand('tx two')).toMatchObject({ name: 'invalid' });
    expect(parseFleetCommand('tx 1 2 3')).toMatchObject({ name: 'invalid' });
  });

  it('passes other subcommands on with their arguments', () => {
    expect(parseFleetCommand('payout mobile 243812345678 150 USD')).toEqual({
      name: 'other',
      subcommand: 'payout',
      args: ['mobile', '243812345678', '150', 'USD'],
    });
  });

  it('treats names of built-in object properties as unknown subcommands, not as aliases', () => {
    for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      expect(parseFleetCommand(word)).toEqual({ name: 'other', subcommand: word.toLowerCase(), args: [] });
    }
  });
});
