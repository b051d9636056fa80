import type { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import type { AccessList } from '../../src/config/config.js';
import { createLogger } from '../../src/core/logger.js';
import { AccessControl, FRESH_READ_REUSE_MS } from '../../src/slack/access.js';
import { ManualClock } from '../support/payout-doubles.js';

/** A Web API that answers `usergroups.users.list` from a table the test changes, counting calls. */
function slackWithGroups(groups: Record<string, string[]>) {
  const calls: string[] = [];
  let failing = false;
  const client = {
    usergroups: {
      users: {
        list: async ({ usergroup }: { usergroup: string }) => {
          calls.push(usergroup);
          if (failing) throw new Error('ratelimited');
          return { ok: true, users: [...(groups[usergroup] ?? [])] };
        },
      },
    },
  } as unknown as WebClient;
  return {
    client,
    calls,
    fail: (value: boolean) => {
      failing = value;
    },
  };
}

const approvers: AccessList = { everyone: false, users: new Set(['U0DIRECT']), groups: new Set(['S0APPROVERS']) };

describe('access checks', () => {
  let access: AccessControl | undefined;
  afterEach(() => access?.close());

  it('answers from the cached group, but a fresh check sees a removal at once and refreshes the cache', async () => {
    const groups = { S0APPROVERS: ['U0ABEL', 'U0ADA'] };
    const slack = slackWithGroups(groups);
    access = new AccessControl(slack.client, createLogger({ level: 'silent' }));
    expect(await access.allows(approvers, 'U0ABEL')).toBe(true);
    groups.S0APPROVERS = ['U0ADA'];
    expect(await access.allows(approvers, 'U0ABEL')).toBe(true);
    expect(slack.calls).toHaveLength(1);

    expect(await access.allows(approvers, 'U0ABEL', { fresh: true })).toBe(false);
    expect(slack.calls).toHaveLength(2);
    expect(await access.allows(approvers, 'U0ABEL')).toBe(false);
    expect(slack.calls).toHaveLength(2);
  });

  it('rejects a fresh check it cannot answer, where a cached check grants nothing', async () => {
    const slack = slackWithGroups({ S0APPROVERS: ['U0ABEL'] });
    access = new AccessControl(slack.client, createLogger({ level: 'silent' }));
    slack.fail(true);
    expect(await access.allows(approvers, 'U0ABEL')).toBe(false);
    await expect(access.allows(approvers, 'U0ABEL', { fresh: true })).rejects.toThrow('ratelimited');
    expect(await access.allows(approvers, 'U0DIRECT', { fresh: true })).toBe(true);
  });

  it('shares one fresh read of a group among the fresh checks made while it is on its way', async () => {
    const groups = { S0APPROVERS: ['U0ABEL', 'U0ADA'] };
    const slack = slackWithGroups(groups);
    access = new AccessControl(slack.client, createLogger({ level: 'silent' }));
    const answers = await Promise.all(['U0ABEL', 'U0ADA', 'U0ABEL', 'U0EVE'].map((userId) => access!.allows(approvers, userId, { fresh: true })));
    expect(answers).toEqual([true, true, true, false]);
    expect(slack.calls).toHaveLength(1);
  });

  it('reuses a fresh read for the fresh checks of the next few seconds, one call for a run of due occurrences or Stop clicks, and reads again after', async () => {
    const groups = { S0APPROVERS: ['U0ABEL', 'U0ADA'] };
    const slack = slackWithGroups(groups);
    const clock = new ManualClock(new Date('2026-11-28T09:00:00Z'));
    access = new AccessControl(slack.client, createLogger({ level: 'silent' }), clock);
    // One check after another, as each due occurrence and each click by a non-approver makes.
    for (const userId of ['U0ABEL', 'U0EVE', 'U0ADA', 'U0EVE', 'U0EVE']) {
      await access.allows(approvers, userId, { fresh: true });
      clock.advance(900);
    }
    expect(slack.calls).toEqual(['S0APPROVERS']);

    groups.S0APPROVERS = ['U0ADA'];
    clock.set(new Date(Date.parse('2026-11-28T09:00:00Z') + FRESH_READ_REUSE_MS));
    expect(await access.allows(approvers, 'U0ABEL', { fresh: true })).toBe(false);
    expect(slack.calls).toHaveLength(2);
    // The cached check reads what the fresh read found.
    expect(await access.allows(approvers, 'U0ABEL')).toBe(false);
    expect(slack.calls).toHaveLength(2);
  });

  it('reads again when the clock was set back, rather than stretching the few seconds', async () => {
    const slack = slackWithGroups({ S0APPROVERS: ['U0ABEL'] });
    const clock = new ManualClock(new Date('2026-11-28T09:00:00Z'));
    access = new AccessControl(slack.client, createLogger({ level: 'silent' }), clock);
    await access.allows(approvers, 'U0ABEL', { fresh: true });
    clock.set(new Date('2026-11-28T08:00:00Z'));
    await access.allows(approvers, 'U0ABEL', { fresh: true });
    expect(slack.calls).toHaveLength(2);
  });

  it('does not reuse a fresh read that failed: the next fresh check asks Slack again', async () => {
    const slack = slackWithGroups({ S0APPROVERS: ['U0ABEL'] });
    access = new AccessControl(slack.client, createLogger({ level: 'silent' }), new ManualClock(new Date('2026-11-28T09:00:00Z')));
    slack.fail(true);
    await expect(access.allows(approvers, 'U0ABEL', { fresh: true })).rejects.toThrow('ratelimited');
    slack.fail(false);
    expect(await access.allows(approvers, 'U0ABEL', { fresh: true })).toBe(true);
    expect(slack.calls).toHaveLength(2);
  });
});

describe('access checks for an org-wide install', () => {
  it('names the workspace of the user groups (SLACK_TEAM_ID) in every read, and nothing without it', async () => {
    const sent: Array<Record<string, unknown>> = [];
    const client = {
      usergroups: { users: { list: async (args: Record<string, unknown>) => (sent.push(args), { ok: true, users: ['U0ABEL'] }) } },
    } as unknown as WebClient;
    const orgWide = new AccessControl(client, createLogger({ level: 'silent' }), undefined, 'T0WORKSPACE');
    const single = new AccessControl(client, createLogger({ level: 'silent' }));
    try {
      expect(await orgWide.allows(approvers, 'U0ABEL')).toBe(true);
      expect(await orgWide.allows(approvers, 'U0ABEL', { fresh: true })).toBe(true);
      expect(await single.allows(approvers, 'U0ABEL')).toBe(true);
      expect(sent).toEqual([
        { usergroup: 'S0APPROVERS', team_id: 'T0WORKSPACE' },
        { usergroup: 'S0APPROVERS', team_id: 'T0WORKSPACE' },
        { usergroup: 'S0APPROVERS' },
      ]);
    } finally {
      orgWide.close();
      single.close();
    }
  });
});
