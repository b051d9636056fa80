import type { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { systemClock } from '../../../src/core/clock.js';
import { payoutRequestReader, type PayoutRequest } from '../../../src/payouts/index.js';
import { fixedLocale } from '../../../src/slack/locales.js';
import { SlackPayoutNotifier } from '../../../src/slack/publishers/payout-notifier.js';
import { checkMessage } from '@fleet-treasury-bot/local-slack';
import { APPROVER, createService, pendingRequest, quietSignals, settings, submitted, usePayoutDatabase } from '../../support/payout-doubles.js';
import { testDatabases } from '../../support/databases.js';
import type { Db } from '../../../src/store/db.js';

const at = new Date('2026-11-21T10:00:00.000Z');
const pending = pendingRequest({ approvalMessage: { channel: 'C0APPROVALS', ts: '1.000001' }, version: 2 });

describe('payout approval message updates', () => {
  it("writes the approval message in the channel's language and the requester's direct message in theirs", async () => {
    const posted: Array<{ channel: string; text: string; blocks: unknown[] }> = [];
    const client = {
      chat: {
        update: async (message: { channel: string; text: string; blocks: unknown[] }) => {
          posted.push(message);
          return { ok: true };
        },
        postMessage: async (message: { channel: string; text: string; blocks: unknown[] }) => {
          posted.push(message);
          return { ok: true };
        },
      },
    } as unknown as WebClient;
    const requests = { get: async () => pending, setApprovalMessage: async () => undefined, signals: quietSignals };
    const asked: string[] = [];
    const locales = {
      forPerson: (userId: string) => Promise.resolve(asked.push(userId) && userId === pending.requestedBy ? ('en' as const) : ('fr' as const)),
    };
    const notifier = new SlackPayoutNotifier({
      client,
      surface: { sandbox: false, locale: 'fr' as const },
      locales,
      logger: createLogger({ level: 'silent' }),
      requests,
      approvalChannelId: 'C0APPROVALS',
    });

    await notifier.changed(pending, 'requested', pending.requestedBy);
    await notifier.changed(pending, 'executing', undefined);
    await notifier.idle();

    const channel = posted.filter((message) => message.channel === 'C0APPROVALS');
    const direct = posted.filter((message) => message.channel === pending.requestedBy);
    expect(channel.map((message) => message.text)).toEqual([
      expect.stringMatching(new RegExp(`^Paiement ${pending.id}: .*: en attente d’approbation$`)),
      expect.any(String),
    ]);
    expect(JSON.stringify(channel[0]!.blocks)).toContain('demande l’envoi de');
    expect(direct).toHaveLength(1);
    expect(JSON.stringify(direct[0]!.blocks)).toContain(`:inbox_tray: Your payout request *${pending.id}*`);
    // Only the event that gives the requester a message asks for their language.
    expect(asked).toEqual([pending.requestedBy]);
  });

  it('calls only the approvers who may still approve once one of two approvals is given', async () => {
    const updates: Array<{ text: string; blocks: unknown[] }> = [];
    const client = {
      chat: { update: async (message: { text: string; blocks: unknown[] }) => (updates.push(message), { ok: true }), postMessage: async () => ({ ok: true }) },
    } as unknown as WebClient;
    const halfway = { ...pending, requiredApprovals: 2, approvals: [{ userId: 'U0ABEL', at }] };
    const requests = { get: async () => halfway, setApprovalMessage: async () => undefined, signals: quietSignals };
    const mentions = { everyone: false, users: new Set(['U0ABEL', 'U0ADA', 'U0FABRICE', halfway.requestedBy]), groups: new Set<string>() };
    const notifier = new SlackPayoutNotifier({
      client,
      surface: { sandbox: false, locale: 'en' as const },
      locales: fixedLocale('en'),
      logger: createLogger({ level: 'silent' }),
      requests,
      approvalChannelId: 'C0APPROVALS',
      mentions,
    });

    await notifier.changed(halfway, 'approved', 'U0ABEL');
    await notifier.idle();

    const shown = JSON.stringify(updates.at(-1)!.blocks);
    expect(shown).toContain(':bell: <@U0ADA> <@U0FABRICE>: this request waits for your approval.');
    expect(updates.at(-1)!.text).toMatch(/ <@U0ADA> <@U0FABRICE>$/);
  });

  it('shows the request again when another replica changed it while the message was being updated', async () => {
    let stored: PayoutRequest = pending;
    const updates: string[] = [];
    const client = {
      chat: {
        update: async (message: { text: string }) => {
          // Meanwhile another replica sends the payout and updates the message first; ours lands last.
          if (updates.length === 0) {
            stored = { ...pending, state: 'completed', transactionId: 'PO-ABC', approvals: [{ userId: 'U0APPROVER', at }], version: 5 };
          }
          updates.push(message.text);
          return { ok: true };
        },
        postMessage: async () => ({ ok: true }),
      },
    } as unknown as WebClient;
    const requests = { get: async () => stored, setApprovalMessage: async () => undefined, signals: quietSignals };
    const notifier = new SlackPayoutNotifier({
      client,
      surface: { sandbox: false, locale: 'en' as const },
      locales: fixedLocale('en'),
      logger: createLogger({ level: 'silent' }),
      requests,
      approvalChannelId: 'C0APPROVALS',
    });

    await notifier.changed(pending, 'requested', 'U0REQUESTER');
    await notifier.idle();

    expect(updates).toHaveLength(2);
    expect(updates.at(-1)).toContain('sent (transaction PO-ABC)');
  });

  it('leaves one approval message when two replicas post it at the same moment', async () => {
    let stored: PayoutRequest = { ...pending, approvalMessage: undefined };
    const live = new Set<string>();
    let posts = 0;
    const client = {
      chat: {
        postMessage: async () => {
          posts += 1;
          const ts = `1.00000${posts}`;
          live.add(ts);
          return { ok: true, channel: 'C0APPROVALS', ts };
        },
        update: async () => ({ ok: true }),
        delete: async ({ ts }: { ts: string }) => {
          live.delete(ts);
          return { ok: true };
        },
      },
    } as unknown as WebClient;
    const requests = {
      get: async () => stored,
      signals: quietSignals,
      setApprovalMessage: async (_id: string, channel: string, ts: string) => {
        if (stored.approvalMessage) return undefined;
        stored = { ...stored, approvalMessage: { channel, ts } };
        return stored;
      },
    };
    const replicas = [1, 2].map(() => {
      return new SlackPayoutNotifier({
        client,
        surface: { sandbox: false, locale: 'en' as const },
        locales: fixedLocale('en'),
        logger: createLogger({ level: 'silent' }),
        requests,
        approvalChannelId: 'C0APPROVALS',
      });
    });

    for (const notifier of replicas) notifier.repostIfMissing(stored);
    await Promise.all(replicas.map((notifier) => notifier.idle()));

    expect(posts).toBe(2);
    expect([...live]).toEqual([stored.approvalMessage?.ts]);
  });
});

describe.each(testDatabases())('a payout the Fleet API answers with a 500-character transactionId, on $name', ({ open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  it('is sent once and every message about it stays within Slack limits, the id cut and neutralised', async () => {
    const sent: Array<{ method: string; text: string; blocks: unknown[] }> = [];
    const record = (method: string) => async (message: { text: string; blocks: unknown[] }) => {
      sent.push({ method, text: message.text, blocks: message.blocks });
      return { ok: true, channel: 'C0APPROVALS', ts: `1.${sent.length}` };
    };
    const client = { chat: { postMessage: record('chat.postMessage'), update: record('chat.update') } } as unknown as WebClient;
    const requests = payoutRequestReader(db, systemClock, settings);
    const notifier = new SlackPayoutNotifier({
      client,
      surface: { sandbox: true, locale: 'en' as const },
      locales: fixedLocale('en'),
      logger: createLogger({ level: 'silent' }),
      requests,
      approvalChannelId: 'C0APPROVALS',
    });
    const { service, fleet } = createService(db, { notifiers: [notifier] });
    const transactionId = `PO-${'<&\u202E'.repeat(165)}X`.slice(0, 500);
    fleet.willAnswer({ transactionId, message: 'Payout processing initiated' });

    const request = await submitted(service);
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'completed', transactionId } });
    await notifier.idle();

    expect(fleet.payoutCalls).toHaveLength(1);
    // The approval message is updated and the requester gets a direct message, both naming the transaction.
    const aboutTheOutcome = sent.filter((message) => message.text.includes('(transaction '));
    expect(new Set(aboutTheOutcome.map((message) => message.method))).toEqual(new Set(['chat.postMessage', 'chat.update']));
    for (const message of sent) {
      expect(checkMessage(message.blocks, message.text), message.method).toEqual([]);
      const everything = `${message.text}\n${JSON.stringify(message.blocks)}`;
      expect(everything).not.toContain(transactionId);
      expect(everything).not.toContain('&lt;&amp;'.repeat(100));
      expect(everything).not.toMatch(/[\u202A-\u202E]/);
    }
    expect(JSON.stringify(aboutTheOutcome[0]!.blocks)).toContain('PO-&lt;&amp;');
  });
});
