/**
 * Which replica runs each workspace's periodic work (its feed, ledger reads, digest, schedules,
 * reminders, bulk sending). Every replica says it is alive every few seconds (a row of
 * `hosting_replicas`, judged by the database's clock) and reads which others are; each workspace
 * goes to the live replica that ranks first for it by rendezvous hashing, so that every replica works
 * out the same owner from the same list, and a replica that joins or leaves moves only its own share.
 * Every replica still answers every workspace's Slack requests. The leases stay the guard: while two
 * replicas disagree for a moment (one has seen a newcomer, the other not yet), both may try a piece of
 * work, and its lease lets one do it.
 */
import { createHash } from 'node:crypto';
import { REPLICAS_TENANT, type Db } from '../store/index.js';

/** How often a replica says it is alive. */
export const REPLICA_BEAT_MS = 3_000;
/** A replica not seen for this long is gone: its workspaces go to the others. */
export const REPLICA_GONE_AFTER_MS = 15_000;
/** Rows of replicas gone longer than this are deleted by the next beat of any replica. */
const FORGET_AFTER_MS = 60 * 60 * 1000;

export interface WorkPlacementOptions {
  db: Db;
  /** This replica's name, unique among the replicas alive. */
  replicaId: string;
  goneAfterMs?: number;
}

export class WorkPlacement {
  private readonly db: Db;
  private live: readonly string[] = [];
  private readonly owners = new Map<string, string>();

  constructor(private readonly options: WorkPlacementOptions) {
    this.db = options.db.forTenant(REPLICAS_TENANT);
  }

  get replicaId(): string {
    return this.options.replicaId;
  }

  /** The replicas alive at the last beat, this one included, sorted. */
  get replicas(): readonly string[] {
    return this.live;
  }

  /** Says this replica is alive and reads which are; true when that list changed since the last beat. */
  async beat(): Promise<boolean> {
    const goneAfterMs = this.options.goneAfterMs ?? REPLICA_GONE_AFTER_MS;
    // One statement: renew this replica's row, forget replicas gone long ago, read the others alive.
    const { rows } = await this.db.query<{ replica_id: string }>(
      `WITH seen AS (
         INSERT INTO hosting_replicas (replica_id, seen_at) VALUES ($1, clock_timestamp())
         ON CONFLICT (replica_id, tenant_id) DO UPDATE SET seen_at = excluded.seen_at
       ), forgotten AS (
         DELETE FROM hosting_replicas WHERE seen_at < clock_timestamp() - $3 * interval '1 millisecond'
       )
       SELECT replica_id FROM hosting_replicas WHERE seen_at > clock_timestamp() - $2 * interval '1 millisecond' AND replica_id <> $1`,
      [this.options.replicaId, goneAfterMs, FORGET_AFTER_MS],
    );
    // Its own row counts whatever the snapshot shows: the statement renews it.
    const live = [this.options.replicaId, ...rows.map((row) => row.replica_id)].sort();
    if (live.length === this.live.length && live.every((replica, i) => replica === this.live[i])) return false;
    this.live = live;
    this.owners.clear();
    return true;
  }

  /** True when this replica runs the workspace's periodic work (before the first beat: it knows of no other, so it does). */
  owns(tenant: string): boolean {
    return this.ownerOf(tenant) === this.options.replicaId;
  }

  /** The live replica that runs the workspace's periodic work. */
  ownerOf(tenant: string): string {
    if (this.live.length === 0) return this.options.replicaId;
    let owner = this.owners.get(tenant);
    if (owner === undefined) {
      owner = rendezvousOwner(tenant, this.live);
      this.owners.set(tenant, owner);
    }
    return owner;
  }

  /** Leaves the list at once (a replica that stops), so that the others take its workspaces at their next beat. */
  async leave(): Promise<void> {
    await this.db.query('DELETE FROM hosting_replicas WHERE replica_id = $1', [this.options.replicaId]);
    this.live = [];
    this.owners.clear();
  }
}

/** The replica with the highest score for the tenant: the same answer on every replica given the same list. */
export function rendezvousOwner(tenant: string, replicas: readonly string[]): string {
  let best = replicas[0]!;
  let bestScore = -1n;
  for (const replica of replicas) {
    const score = createHash('sha256').update(tenant).update('\n').update(replica).digest().readBigUInt64BE(0);
    if (score > bestScore || (score === bestScore && replica < best)) {
      best = replica;
      bestScore = score;
    }
  }
  return best;
}
