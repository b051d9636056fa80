/** The demo's people, channels and the roles the demo configuration gives each person. */
import type { WorkspaceChannel, WorkspaceUser } from '../workspace/index.js';

export interface DemoPerson extends WorkspaceUser {
  /** Shown in the page's person switcher. */
  role: string;
}

export const DEMO_PEOPLE = {
  rita: { id: 'U0REQUESTER', name: 'rita', realName: 'Rita Requester', role: 'requester and viewer' },
  abel: { id: 'U0APPROVER', name: 'abel', realName: 'Abel Approver', role: 'approver and viewer' },
  ada: { id: 'U0APPROVER2', name: 'ada', realName: 'Ada Approver', role: 'second approver and viewer' },
  nico: { id: 'U0NEWCOMER', name: 'nico', realName: 'Nico Newcomer', role: 'newcomer, no access' },
} as const satisfies Record<string, DemoPerson>;

export const DEMO_CHANNELS = {
  treasury: { id: 'C0TREASURY', name: 'treasury' },
  approvals: { id: 'C0APPROVALS', name: 'treasury-approvals' },
  feed: { id: 'C0FEED', name: 'treasury-feed' },
  digest: { id: 'C0DIGEST', name: 'treasury-digest' },
} as const satisfies Record<string, WorkspaceChannel>;

/** The access lists and channels of the demo, in the bot's environment variables. */
export function demoRoleEnv(): Record<string, string> {
  const { rita, abel, ada } = DEMO_PEOPLE;
  return {
    FLEET_VIEWERS: [rita.id, abel.id, ada.id].join(','),
    FLEET_REQUESTERS: rita.id,
    FLEET_APPROVERS: [abel.id, ada.id].join(','),
    APPROVAL_CHANNEL_ID: DEMO_CHANNELS.approvals.id,
    FEED_CHANNEL_ID: DEMO_CHANNELS.feed.id,
    DIGEST_CHANNEL_ID: DEMO_CHANNELS.digest.id,
  };
}
