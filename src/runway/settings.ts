/** What the runway needs from the configuration; `config.ts` maps the environment onto it. */

export interface RunwaySettings {
  /** RUNWAY_WINDOW_DAYS: how many whole days before today the average daily flow is taken over. */
  windowDays: number;
  /** RUNWAY_ALERT_DAYS: a currency whose days left fall below this is announced in the alert channel. */
  alertDays: number;
  /** The team's zone (DIGEST_TIMEZONE, else TEAM_TIMEZONE), whose calendar days the window counts, as the digest's. */
  timeZone: string;
}
