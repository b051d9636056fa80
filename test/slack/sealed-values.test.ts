import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUTTON_VALUE_MAX, ValueSeal } from '../../src/slack/trust/sealed-values.js';

const reading = z.object({ readAt: z.string(), balances: z.record(z.string(), z.number()) });
const shown = { readAt: '2026-11-23T09:12:00.000Z', balances: { USD: 281759.02, CDF: 1500000 } };

describe('sealed button values', () => {
  const seal = new ValueSeal('xoxb-the-bot-token');

  it('gives back exactly the value it sealed', () => {
    expect(seal.open(seal.seal(shown), reading)).toEqual(shown);
  });

  it('refuses a value whose figures were edited, even with a well-formed seal from another value', () => {
    const sealed = seal.seal(shown)!;
    const [, mac] = sealed.split('.');
    const edited = Buffer.from(JSON.stringify({ ...shown, balances: { USD: 1_000_000 } })).toString('base64url');
    expect(seal.open(`${edited}.${mac}`, reading)).toBeUndefined();
    const other = seal.seal({ ...shown, balances: { USD: 1 } })!;
    expect(seal.open(`${sealed.split('.')[0]}.${other.split('.')[1]}`, reading)).toBeUndefined();
  });

  it('refuses a value sealed under another key, a value of the wrong shape, and junk', () => {
    expect(new ValueSeal('xoxb-another-token').open(seal.seal(shown), reading)).toBeUndefined();
    expect(seal.open(seal.seal({ readAt: 42 }), reading)).toBeUndefined();
    for (const junk of [undefined, '', 'share', 'a.b', 'a.b.c', `${Buffer.from('{').toString('base64url')}.x`]) {
      expect(seal.open(junk, reading)).toBeUndefined();
    }
  });

  it('says when a value would not fit in a button rather than cutting it', () => {
    expect(seal.seal({ text: 'x'.repeat(BUTTON_VALUE_MAX) })).toBeUndefined();
  });
});
