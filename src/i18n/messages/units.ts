/** Units shown in durations (`3 min`, `2 h 5 min`, `1 d 4 h`; `1 j 4 h` in French). */
import { defineMessages } from '../define.js';

export const units = defineMessages({
  en: {
    'duration.seconds': '{seconds} s',
    'duration.minutes': '{minutes} min',
    'duration.hours': '{hours} h {minutes} min',
    'duration.days': '{days} d {hours} h',
  },
  fr: {
    'duration.seconds': '{seconds} s',
    'duration.minutes': '{minutes} min',
    'duration.hours': '{hours} h {minutes} min',
    'duration.days': '{days} j {hours} h',
  },
});
