import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import { PayoutBatchService } from '../../../src/payouts/batch/service.js';
import { BatchSender } from '../../../src/payouts/batch/sender.js';
import type { Db } from '../../../src/store/db.js';
import { FleetTimeoutError } from '../../../src/fleet/errors.js';
import { testDatabases } from '../../support/databases.js';
import {
  APPROVER,
  changingRoles,
  createService,
  MINUTE,
  mobileForm,
  OUTSIDER,
  REQUESTER,
  rolesFor,
  settings,
  usePayoutDatabase,
} from '../../support/payout-doubles.js';
import { refusalMessage, type RefusalFacts } from '../../../src/slack/refusals/payout-refusals.js';

const HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';
const rows = (count: number) =>
  Array.from({ length: count }, (_, index) => `mobile,2438123${String(index).padStart(5, '0')},VODACOM_MPESA,Person ${index},CD,1,USD,,`);

describe.each(testDatabases())('sending a bulk payout on $name', ({ name, open }) => {
  let db: Db;
  usePayoutDatabase(open, (opened) => {
    db = opened;
  });

  /** A replica: its own payout service and sender over the shared database and Fleet API double. */
  function replica(fleet?: ReturnType<typeof createService>['fleet'], send?: 'dies_before_sending') {
    const made = createService(db, fleet ? { fleet } : {});
    const batches = new PayoutBatchService({
      db,
      clock: made.clock,
      settings,
      batchSettings: { maxRows: 500, ratePerSecond: 1000 },
      roles: rolesFor([REQUESTER], [APPROVER]),
      logger: createLogger({ level: 'silent' }),
    });
    const sender = new BatchSender({
      db,
      clock: made.clock,
      logger: createLogger({ level: 'silent' }),
      ratePerSecond: 1000,
      announce: async () => undefined,
      send:
        send === 'dies_before_sending'
          ? async () => {
              throw new Error('killed');
            }
          : (request) => made.service.sendApproved(request, 'bulk'),
    });
    return { ...made, batches, sender };
  }

  async function releasedBatch(batches: PayoutBatchService, count: number): Promise<string> {
    const checked = await batches.check(REQUESTER, `${HEADER}\n${rows(count).join('\n')}\n`);
    expect(checked.ok && checked.check.problems).toEqual([]);
    expect((await batches.submit(REQUESTER, checked.batchId, { confirmedDuplicate: false })).ok).toBe(true);
    const approved = await batches.approve(checked.batchId, APPROVER);
    expect(approved.ok && approved.batch.state).toBe('sending');
    return checked.batchId;
  }

  it('sends every row once when two replicas send the same batch at once, then marks it done', async () => {
    const one = replica();
    const two = replica(one.fleet);
    const id = await releasedBatch(one.batches, 60);
    await Promise.all([one.sender.sendDue(500), two.sender.sendDue(500)]);
    const references = one.fleet.payoutCalls.map((call) => call.body.reference);
    expect(references).toHaveLength(60);
    expect(new Set(references).size).toBe(60);
    expect((await one.batches.get(id))?.state).toBe('done');
    expect((await one.batches.results(id)).every((row) => row.outcome === 'sent')).toBe(true);
  });

  it("keeps the references of an approved bulk payout's rows not yet sent: a payout typed with one is refused, saying whose, and every row is still sent", async () => {
    const one = replica();
    const id = await releasedBatch(one.batches, 4);
    const typed = await one.service.validate('mobile_money', { ...mobileForm, reference: `${id}-4` });
    expect(typed).toEqual({ ok: false, errors: { reference: { code: 'reference_reserved', reservedFor: { kind: 'bulk', batchId: id, row: 4 } } } });
    const other = await one.service.validate('mobile_money', { ...mobileForm, reference: 'INV-OTHER-1' });
    if (!other.ok) throw new Error('expected a valid form');
    const refused = await one.service.submit(REQUESTER, { ...other.draft, reference: `${id}-4` });
    expect(refused).toMatchObject({ ok: false, code: 'duplicate_reference', details: { reservedFor: { kind: 'bulk', batchId: id, row: 4 } } });
    expect(refusalMessage(refused as RefusalFacts, 'fr')).toBe(
      `Cette référence est réservée à la ligne 4 du paiement groupé ${id} : choisissez-en une autre, ou laissez le champ vide.`,
    );
    await one.sender.sendDue(500);
    // Row 1 is the header: the rows are 2 to 5.
    expect(one.fleet.payoutCalls.map((call) => call.body.reference).sort()).toEqual([2, 3, 4, 5].map((row) => `${id}-${row}`));
  });

  it("lets one replica at a time attempt a finished batch's results, retries a failed attempt after its wait, and never after delivery", async () => {
    const one = replica();
    const two = replica(one.fleet);
    const id = await releasedBatch(one.batches, 2);
    await one.sender.sendDue(500);
    expect((await one.batches.get(id))?.state).toBe('done');
    const claims = await Promise.all([one.batches.claimResults(id), two.batches.claimResults(id)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // The attempt failed: after its wait (30 s for a first attempt) it is due again, for one replica.
    await db.query("UPDATE payout_batches SET results_attempted_at = now() - interval '31 seconds' WHERE id = $1", [id]);
    expect(await two.batches.claimResults(id)).toBe(true);
    expect(await one.batches.claimResults(id)).toBe(false);
    await two.batches.resultsDelivered(id);
    await db.query("UPDATE payout_batches SET results_attempted_at = now() - interval '1 hour' WHERE id = $1", [id]);
    expect(await one.batches.claimResults(id)).toBe(false);
  });

  it('never sends a row twice after a process dies between taking it and sending it: recovery sends it once', async () => {
    const dying = replica(undefined, 'dies_before_sending');
    const id = await releasedBatch(dying.batches, 3);
    await expect(dying.sender.sendDue(1)).rejects.toThrow('killed');
    const survivor = replica(dying.fleet);
    await survivor.sender.sendDue(500);
    expect(dying.fleet.payoutCalls).toHaveLength(2);
    await survivor.service.recoverInterrupted({ staleAfterMs: 0 });
    await survivor.sender.finishDone();
    const references = dying.fleet.payoutCalls.map((call) => call.body.reference);
    expect(references.sort()).toEqual([`${id}-2`, `${id}-3`, `${id}-4`]);
    expect((await survivor.batches.get(id))?.state).toBe('done');
  });

  it('waits for reconciliation before ending a batch with a row whose outcome is unknown, then reports the row as it settled', async () => {
    const one = replica();
    one.fleet.willAnswer(new FleetTimeoutError(true));
    const id = await releasedBatch(one.batches, 2);
    await one.sender.sendDue(500);
    expect(one.fleet.payoutCalls).toHaveLength(2);
    // Reconciliation is still looking for the first row: the batch is not over, and no results file goes out.
    expect((await one.batches.get(id))?.state).toBe('sending');
    expect(await one.sender.finishDone()).toEqual([]);

    // Nothing found within the window: the row needs a person's review, and the batch ends saying so.
    one.clock.advance(11 * MINUTE);
    await one.service.runMaintenance();
    const [finished] = await one.sender.finishDone();
    expect(finished?.id).toBe(id);
    expect((await one.batches.results(id)).map((row) => row.outcome).sort()).toEqual(['sent', 'unknown']);
  });

  // Two connections taking locks in turn: only a server has them (PGlite runs one transaction at a time).
  if (name === 'postgres') {
    it('stops a batch while a replica is taking one of its rows, without the two waiting on each other', async () => {
      const one = replica();
      const id = await releasedBatch(one.batches, 3);
      let tookRow: () => void = () => {};
      const rowTaken = new Promise<void>((resolve) => {
        tookRow = resolve;
      });
      let stopAsked: () => void = () => {};
      const stopping = new Promise<void>((resolve) => {
        stopAsked = resolve;
      });
      // A replica's take, step by step, in the order BatchSender.takeRow locks: the pace, a row, then its batch.
      const take = db.transaction(async (tx) => {
        await tx.query("INSERT INTO payout_batch_pace (name, next_at) VALUES ($1, 'epoch') ON CONFLICT DO NOTHING", ['batches']);
        await tx.query('SELECT 1 FROM payout_batch_pace WHERE name = $1 FOR UPDATE', ['batches']);
        await tx.query('SELECT 1 FROM payout_batch_rows WHERE batch_id = $1 AND row_number = 2 FOR UPDATE', [id]);
        tookRow();
        await stopping;
        await new Promise((resolve) => setTimeout(resolve, 200));
        const { rows } = await tx.query<{ state: string }>('SELECT state FROM payout_batches WHERE id = $1 FOR SHARE', [id]);
        return rows[0]?.state;
      });
      await rowTaken;
      const stop = one.batches.stop(id, APPROVER);
      stopAsked();
      expect(await take).toBe('sending');
      expect(await stop).toMatchObject({ ok: true, batch: { state: 'stopped' } });
    });
  }

  it("refuses Stop sending from someone not an approver by the cached lists, without asking Slack afresh; an approver's Stop is checked fresh", async () => {
    const one = replica();
    const id = await releasedBatch(one.batches, 2);
    const people = changingRoles();
    const batches = new PayoutBatchService({
      db,
      clock: one.clock,
      settings,
      batchSettings: { maxRows: 500, ratePerSecond: 1000 },
      roles: people.roles,
      logger: createLogger({ level: 'silent' }),
    });
    expect(await batches.stop(id, OUTSIDER)).toMatchObject({ ok: false, code: 'not_approver' });
    expect(await batches.stop(id, OUTSIDER)).toMatchObject({ ok: false, code: 'not_approver' });
    expect(people.freshLookups).toEqual([]);
    expect(await batches.stop(id, APPROVER)).toMatchObject({ ok: true, batch: { state: 'stopped' } });
    expect(people.freshLookups).toEqual([APPROVER]);
  });

  it('keeps the pace across replicas in the database: after one row, the next slot is a second away at 1 a second', async () => {
    const slow = replica();
    const slowSender = new BatchSender({
      db,
      clock: slow.clock,
      logger: createLogger({ level: 'silent' }),
      ratePerSecond: 1,
      announce: async () => undefined,
      send: (request) => slow.service.sendApproved(request, 'bulk'),
    });
    await releasedBatch(slow.batches, 2);
    await db.query("UPDATE payout_batch_pace SET next_at = 'epoch'");
    expect(await slowSender.sendDue(1)).toBe(1);
    const {
      rows: [pace],
    } = await db.query<{ ahead_ms: number | string }>('SELECT EXTRACT(EPOCH FROM (next_at - clock_timestamp())) * 1000 AS ahead_ms FROM payout_batch_pace');
    expect(Number(pace?.ahead_ms)).toBeGreaterThan(500);
    expect(Number(pace?.ahead_ms)).toBeLessThanOrEqual(1000);
    expect(slow.fleet.payoutCalls).toHaveLength(1);
  });
});
