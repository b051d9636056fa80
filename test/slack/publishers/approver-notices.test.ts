import { describe, expect, it } from 'vitest';
import { approverMentions, MAX_MENTIONED_APPROVERS, notToCall } from '../../../src/slack/publishers/approver-notices.js';

const list = (users: string[], groups: string[] = [], everyone = false) => ({ everyone, users: new Set(users), groups: new Set(groups) });

describe('whom an approval message mentions', () => {
  it('mentions every user group as Slack writes it, and listed users but the requester', () => {
    expect(approverMentions(list(['U0ABEL', 'U0RITA'], ['S0TREASURY']), ['U0RITA'])).toBe('<!subteam^S0TREASURY> <@U0ABEL>');
  });

  it('mentions at most 10 listed users, nobody for everyone, and nothing when turned off', () => {
    const many = Array.from({ length: 15 }, (_, index) => `U0PERSON${index}`);
    expect(approverMentions(list(many), ['U0RITA']).match(/<@/g)).toHaveLength(MAX_MENTIONED_APPROVERS);
    expect(approverMentions(list([], [], true), ['U0RITA'])).toBe('');
    expect(approverMentions(undefined, ['U0RITA'])).toBe('');
  });

  it('leaves out whoever already approved, and the requester', () => {
    const halfway = {
      requestedBy: 'U0RITA',
      approvals: [
        { userId: 'U0ABEL', at: new Date(0) },
        { userId: 'U0OLD', at: new Date(0), revokedAt: new Date(1) },
      ],
    };
    expect(notToCall(halfway)).toEqual(['U0RITA', 'U0ABEL']);
    expect(approverMentions(list(['U0ABEL', 'U0ADA', 'U0RITA']), notToCall(halfway))).toBe('<@U0ADA>');
  });
});
