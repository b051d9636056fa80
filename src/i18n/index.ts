export { LOCALES, isLocale, localeFromSlack, type Locale } from './locale.js';
export { textsFor, translate, catalogTable, type Texts, type MessageKey } from './catalog.js';
