/** The demo's people, channels and the roles the demo configuration gives each person. */
import type { WorkspaceChannel, WorkspaceUser } from '../workspace/index.js';

export interface DemoPerson extends WorkspaceUser {
  /** Shown in the page's person switcher. */
  role: string;
}

export const DEMO_PEOPLE = {
  rita: { id: 'U0REQUESTER', name: 'rita', realName: 'Rita Requester', locale: 'en-US', role: 'requester and viewer' },
  abel: { id: 'U0APPROVER', name: 'abel', realName: 'Abel Approver', locale: 'en-GB', role: 'approver and viewer' },
  ada: { id: 'U0APPROVER2', name: 'ada', realName: 'Ada Approver', locale: 'en-US', role: 'second approver and viewer' },
  // His Slack runs in French, so the app writes to him in French (channel messages stay in CHANNEL_LOCALE).
  fabrice: { id: 'U0FABRICE', name: 'fabrice', realName: 'Fabrice Approbateur', locale: 'fr-FR', role: 'approver and viewer, reads French' },
  nico: { id: 'U0NEWCOMER', name: 'nico', realName: 'Nico Newcomer', locale: 'en-US', role: 'newcomer, no access' },
} as const satisfies Record<string, DemoPerson>;

export const DEMO_CHANNELS = {
  treasury: { id: 'C0TREASURY', name: 'treasury' },
  approvals: { id: 'C0APPROVALS', name: 'treasury-approvals' },
  feed: { id: 'C0FEED', name: 'treasury-feed' },
  digest: { id: 'C0DIGEST', name: 'treasury-digest' },
} as const satisfies Record<string, WorkspaceChannel>;

/**
 * Where the demo's admin invited the bot, as docs/setup-slack.md asks: each channel it posts to. Not
 * #treasury, where people only run commands: the app answers them there without being a member.
 */
export const DEMO_BOT_CHANNELS: string[] = [DEMO_CHANNELS.approvals.id, DEMO_CHANNELS.feed.id, DEMO_CHANNELS.digest.id];

/** The access lists and channels of the demo, in the bot's environment variables. */
export function demoRoleEnv(): Record<string, string> {
  const { rita, abel, ada, fabrice } = DEMO_PEOPLE;
  return {
    FLEET_VIEWERS: [rita.id, abel.id, ada.id, fabrice.id].join(','),
    FLEET_REQUESTERS: rita.id,
    FLEET_APPROVERS: [abel.id, ada.id, fabrice.id].join(','),
    APPROVAL_CHANNEL_ID: DEMO_CHANNELS.approvals.id,
    FEED_CHANNEL_ID: DEMO_CHANNELS.feed.id,
    DIGEST_CHANNEL_ID: DEMO_CHANNELS.digest.id,
  };
}
