/**
 * Which language a person reads: the seam every listener goes through (`surfaceFor`) so that a
 * reply, a DM or a modal is written in the language of the person it is for. Channel messages use
 * `ctx.surface`, whose locale is the channel's.
 */
import type { Locale } from '../i18n/index.js';
import type { Surface } from './views/text.js';

export interface PersonLocales {
  /** The person's language; never fails (a Slack error falls back to the default). */
  forPerson(userId: string): Promise<Locale>;
}

/** Everyone reads `locale`. */
export function fixedLocale(locale: Locale): PersonLocales {
  return { forPerson: () => Promise.resolve(locale) };
}

/** The surface of a reply, DM or modal for one person. */
export async function surfaceFor(ctx: { surface: Surface; locales: PersonLocales }, userId: string): Promise<Surface> {
  return { ...ctx.surface, locale: await ctx.locales.forPerson(userId) };
}
