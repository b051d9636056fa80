/** What scheduled payouts need from the configuration; `config.ts` maps the environment onto it. */
export interface PayoutScheduleSettings {
  /** The team's IANA zone (TEAM_TIMEZONE): the form's date and time are read in it. */
  timeZone: string;
  /** An occurrence found due at most this long ago is still released; an older one is missed. */
  catchUpMinutes: number;
  /** How long before an occurrence its requester gets a DM (0: never). */
  noticeMinutes: number;
}
