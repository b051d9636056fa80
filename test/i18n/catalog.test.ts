import { describe, expect, it } from 'vitest';
import { catalogTable, localeFromSlack, textsFor, translate } from '../../src/i18n/index.js';
import type { Message } from '../../src/i18n/define.js';

function forms(message: Message): string[] {
  return typeof message === 'string' ? [message] : Object.values(message).filter((form): form is string => typeof form === 'string');
}

function variables(message: Message): string[] {
  const templates = forms(message);
  const names = new Set<string>(typeof message === 'string' ? [] : ['count']);
  for (const template of templates) for (const match of template.matchAll(/\{(\w+)\}/g)) names.add(match[1] ?? '');
  return [...names].sort();
}

describe('the text catalog', () => {
  const en = catalogTable('en');
  const fr = catalogTable('fr');

  it('has every key in both languages', () => {
    expect([...fr.keys()].sort()).toEqual([...en.keys()].sort());
    expect(en.size).toBeGreaterThan(0);
  });

  it('uses the same variables in both languages, in every plural form', () => {
    for (const [key, english] of en) {
      const french = fr.get(key);
      expect(french, key).toBeDefined();
      expect({ key, vars: variables(french as Message) }).toEqual({ key, vars: variables(english) });
      for (const message of [english, french as Message]) {
        if (typeof message === 'string') continue;
        // Every form of a plural names the same variables as its `other` form.
        for (const form of forms(message)) {
          expect({ key, vars: variables(form).filter((name) => name !== 'count') }).toEqual({
            key,
            vars: variables(message.other).filter((name) => name !== 'count'),
          });
        }
      }
    }
  });

  it('has no empty text', () => {
    for (const table of [en, fr]) {
      for (const [key, message] of table) {
        for (const form of forms(message)) expect({ key, empty: form.trim() === '' }).toEqual({ key, empty: false });
      }
    }
  });
});

describe('translate', () => {
  it('fills variables, and refuses to show a text with one missing', () => {
    expect(textsFor('en')('common.sandboxSuffix', { title: 'Balance' })).toBe('Balance (SANDBOX)');
    expect(() => translate('fr', 'common.sandboxSuffix', {})).toThrow(/\{title\}/);
  });
});

describe('localeFromSlack', () => {
  it('maps Slack locales onto the languages the app speaks', () => {
    expect(localeFromSlack('fr-FR')).toBe('fr');
    expect(localeFromSlack('fr-CA')).toBe('fr');
    expect(localeFromSlack('en-GB')).toBe('en');
    expect(localeFromSlack('pt-BR')).toBeUndefined();
    expect(localeFromSlack(undefined)).toBeUndefined();
    expect(localeFromSlack('')).toBeUndefined();
  });
});

describe('the types of texts', () => {
  it('refuse a key that does not exist and a variable left out', () => {
    const t = textsFor('en');
    // @ts-expect-error: no such key
    expect(() => t('common.noSuchKey')).toThrow(/Unknown text key/);
    // @ts-expect-error: {title} is required
    expect(() => t('common.sandboxSuffix')).toThrow(/\{title\}/);
  });
});
