/**
 * How texts are declared: each area of the app has one `messages/<area>.ts` with its English and
 * French side by side, through `defineMessages`, so that a key missing in either language fails
 * `npm run typecheck`. A text is a template with `{name}` variables, or plural forms chosen by
 * `{count}` through `Intl.PluralRules`.
 */
import type { Locale } from './locale.js';

/** Plural forms by CLDR category; `other` is required, `one` nearly always given. */
export interface PluralForms {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}

export type Message = string | PluralForms;

/** The variable names of a template: `'{count} of {total}'` → `'count' | 'total'`. */
type TemplateVars<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | TemplateVars<Rest> : never;

/** The variables a message takes; a plural message always takes `count`. */
export type MessageVars<M> = M extends string
  ? TemplateVars<M>
  : M extends PluralForms
    ? 'count' | TemplateVars<M['other']> | TemplateVars<NonNullable<M['one']>>
    : never;

export type Messages = Record<string, Message>;

/** One area's texts: the English ones decide the keys, the French must have exactly the same. */
export interface AreaMessages<E extends Messages> {
  en: E;
  fr: { [K in keyof E]: Message };
}

/** Declares one area's texts in both languages; see the module comment. */
export function defineMessages<const E extends Messages>(messages: { en: E; fr: { [K in keyof E]: Message } }): AreaMessages<E> {
  return messages;
}

export type { Locale };
