/**
 * The front door of bulk payouts for the Slack layer: checking a file a person chose (nothing is
 * stored for it), then, once checked, the batch's request, approval and sending.
 */
import { randomReadableCode } from './identifiers.js';
import type { Clock } from '../clock.js';
import type { Db } from '../store/db.js';
import { checkBatchFile, type BatchFileCheck } from './batch-check.js';
import type { PayoutBatchSettings } from './batch-settings.js';
import type { PayoutSettings } from './settings.js';

export interface PayoutBatchServiceOptions {
  db: Db;
  clock: Clock;
  settings: PayoutSettings;
  batchSettings: PayoutBatchSettings;
  /** Batch ids; defaults to `PB-XXXXXX`. */
  newBatchId?: () => string;
}

/** `PB-7K3F9Q`: a batch's rows without a reference get `PB-7K3F9Q-<row>`. */
export function newBatchId(): string {
  return `PB-${randomReadableCode(6)}`;
}

export const BATCH_ID_PATTERN = /^PB-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;

export class PayoutBatchService {
  constructor(private readonly options: PayoutBatchServiceOptions) {}

  get maxRows(): number {
    return this.options.batchSettings.maxRows;
  }

  /** Reads and checks `content` (a file's bytes or pasted text) under a new batch id; stores nothing. */
  async check(content: Uint8Array | string): Promise<BatchFileCheck & { batchId: string }> {
    const batchId = (this.options.newBatchId ?? newBatchId)();
    const { settings, batchSettings } = this.options;
    const result = await checkBatchFile(this.options.db, content, { settings, maxRows: batchSettings.maxRows, now: this.options.clock.now(), batchId });
    return { ...result, batchId };
  }
}
