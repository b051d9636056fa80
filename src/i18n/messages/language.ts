/** Texts of `/fleet language` (`/fleet langue`): the language the app writes to each person in. */
import { defineMessages } from '../define.js';

export const language = defineMessages({
  en: {
    'language.help.usage': '/fleet language [en|fr|auto]',
    'language.help.description': 'The language the app writes to you in: `en` for English, `fr` for French, or `auto` to follow the language of your Slack.',
    'language.name.en': 'English',
    'language.name.fr': 'French',
    'language.current.choice': 'I write to you in {language}, as you chose. `/fleet language auto` goes back to the language of your Slack.',
    'language.current.slack':
      'I write to you in {language}, the language of your Slack ({slackLocale}). To choose another: `/fleet language fr` or `/fleet language en`.',
    'language.current.default':
      'I write to you in {language}, the default language of this workspace. To choose another: `/fleet language fr` or `/fleet language en`.',
    'language.current.unspoken':
      'I write to you in {language}, the default language of this workspace: your Slack is in {slackLocale}, a language I do not speak. To choose another: `/fleet language fr` or `/fleet language en`.',
    'language.chosen': ':white_check_mark: From now on I write to you in {language}. `/fleet language auto` goes back to the language of your Slack.',
    'language.cleared': ':white_check_mark: Your choice is cleared.',
    'failure.action.saveLanguage': 'save your language',
    'language.unknown':
      '{value} is not a language I speak. Write `/fleet language en` for English, `/fleet language fr` for French, or `/fleet language auto` to follow the language of your Slack.',
  },
  fr: {
    'language.help.usage': '/fleet langue [fr|en|auto]',
    'language.help.description':
      'La langue dans laquelle l’application vous écrit : `fr` pour le français, `en` pour l’anglais, ou `auto` pour suivre la langue de votre Slack.',
    'language.name.en': 'anglais',
    'language.name.fr': 'français',
    'language.current.choice': 'Je vous écris en {language}, comme vous l’avez choisi. `/fleet langue auto` revient à la langue de votre Slack.',
    'language.current.slack':
      'Je vous écris en {language}, la langue de votre Slack ({slackLocale}). Pour en choisir une autre : `/fleet langue en` ou `/fleet langue fr`.',
    'language.current.default':
      'Je vous écris en {language}, la langue par défaut de cet espace de travail. Pour en choisir une autre : `/fleet langue en` ou `/fleet langue fr`.',
    'language.current.unspoken':
      'Je vous écris en {language}, la langue par défaut de cet espace de travail : votre Slack est en {slackLocale}, une langue que je ne parle pas. Pour en choisir une autre : `/fleet langue en` ou `/fleet langue fr`.',
    'language.chosen': ':white_check_mark: Désormais, je vous écris en {language}. `/fleet langue auto` revient à la langue de votre Slack.',
    'language.cleared': ':white_check_mark: Votre choix est effacé.',
    'failure.action.saveLanguage': 'enregistrer votre langue',
    'language.unknown':
      '{value} n’est pas une langue que je parle. Écrivez `/fleet langue fr` pour le français, `/fleet langue en` pour l’anglais, ou `/fleet langue auto` pour suivre la langue de votre Slack.',
  },
});
