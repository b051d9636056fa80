/** Texts of the `/fleet` command itself: the line of `/fleet help` (`/fleet aide`) in its own list. */
import { defineMessages } from '../define.js';

export const fleetCommand = defineMessages({
  en: {
    'fleetCommand.help.usage': '/fleet help',
    'fleetCommand.help.description': 'This list.',
  },
  fr: {
    'fleetCommand.help.usage': '/fleet aide',
    'fleetCommand.help.description': 'Cette liste.',
  },
});
