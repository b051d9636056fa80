import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { SlackPersonNames, SlackUsers, type SlackUser, type UsersInfoClient } from '../../src/slack/people.js';
import { HOUR, ManualClock, MINUTE } from '../support/payout-doubles.js';

/** A `users.info` that answers from a table of users, counting its calls; `hang` never answers, `fail` throws. */
function slackWith(users: Record<string, SlackUser>, behaviour: { hang?: boolean; fail?: Error } = {}) {
  const calls: string[] = [];
  const client: UsersInfoClient = {
    users: {
      info: ({ user }) => {
        calls.push(user);
        if (behaviour.hang) return new Promise(() => undefined);
        if (behaviour.fail) return Promise.reject(behaviour.fail);
        return users[user]
          ? Promise.resolve({ user: users[user] })
          : Promise.reject(Object.assign(new Error('An API error occurred: user_not_found'), { data: { error: 'user_not_found' } }));
      },
    },
  };
  return { client, calls };
}

function namesFor(client: UsersInfoClient, lookupTimeoutMs = 1000) {
  const logs: string[] = [];
  const logger = createLogger({
    level: 'trace',
    destination: new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        logs.push(chunk.toString());
        done();
      },
    }),
  });
  const clock = new ManualClock(new Date('2026-11-23T12:00:00.000Z'));
  return { names: new SlackPersonNames({ users: new SlackUsers(client, lookupTimeoutMs), logger, clock }), clock, logs };
}

const RITA: SlackUser = { name: 'rita', real_name: 'Rita Mbuyi', profile: { display_name: 'Rita (treasury)', real_name: 'Rita Mbuyi' } };
const ABEL: SlackUser = { name: 'abel', real_name: 'Abel Kasongo', profile: { display_name: '', real_name: 'Abel Kasongo' } };

describe('the names people go by in Slack, for the export', () => {
  it('names a person by their display name, else their full name, asking Slack once an hour', async () => {
    const slack = slackWith({ U0RITA: RITA, U0ABEL: ABEL });
    const { names, clock } = namesFor(slack.client);
    expect(await names.namesOf(['U0RITA', 'U0ABEL', 'U0RITA'])).toEqual(
      new Map([
        ['U0RITA', 'Rita (treasury)'],
        ['U0ABEL', 'Abel Kasongo'],
      ]),
    );
    await names.namesOf(['U0ABEL', 'U0RITA']);
    expect(slack.calls).toEqual(['U0RITA', 'U0ABEL']);
    clock.advance(HOUR + 1);
    await names.namesOf(['U0RITA']);
    expect(slack.calls).toEqual(['U0RITA', 'U0ABEL', 'U0RITA']);
  });

  it('leaves out a person Slack does not name in time, and does not ask again for five minutes, so no export waits twice', async () => {
    const slack = slackWith({ U0RITA: RITA }, { hang: true });
    const { names, clock, logs } = namesFor(slack.client, 50);
    const started = Date.now();
    expect(await names.namesOf(['U0RITA'])).toEqual(new Map());
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await names.namesOf(['U0RITA'])).toEqual(new Map());
    expect(slack.calls).toEqual(['U0RITA']);
    expect(logs.join('')).toContain("could not read a person's Slack name");
    clock.advance(5 * MINUTE + 1);
    await names.namesOf(['U0RITA']);
    expect(slack.calls).toEqual(['U0RITA', 'U0RITA']);
  });

  it('leaves out a person Slack does not know, naming the others', async () => {
    const slack = slackWith({ U0RITA: RITA });
    const { names, logs } = namesFor(slack.client);
    expect(await names.namesOf(['U0RITA', 'U0GONE'])).toEqual(new Map([['U0RITA', 'Rita (treasury)']]));
    expect(logs.join('')).toContain('user_not_found');
  });
});
