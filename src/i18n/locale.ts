/** The languages the app speaks, and how a Slack locale (`fr-FR`, `en-GB`) maps onto them. */

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** `fr-FR` → `fr`, `en-GB` → `en`; a language the app does not speak (`pt-BR`) → undefined. */
export function localeFromSlack(slackLocale: string | undefined): Locale | undefined {
  const language = slackLocale?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isLocale(language) ? language : undefined;
}
