/**
 * The import profile builder, reached from `/fleet reconcile`'s preview: "Make a profile from this
 * file" and "Edit profile" switch the same modal to the builder (views.update, no push), its
 * dispatch_action inputs draw it again with a new sample of the file, and its submission checks the
 * profile (errors in the form), saves it for the team, and shows the preview read with it. Any
 * viewer may save a profile; viewers only, checked again on every click and submission.
 */
import { randomUUID } from 'node:crypto';
import type { BlockAction, Context, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { ModalView } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import { isSample, sampleOf, type FileSample, type SampleProblem } from '../../partner-records/profile-sample.js';
import type { SlackContext } from '../context.js';
import { downloadRecords, isModal, previewView, savedOrDefault } from '../files/records-file.js';
import { PROFILE, RECORDS } from '../ids.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { buildProfileModal, draftFromProfile, draftFromState, newDraft, profileFromState, type ProfileDraft } from '../views/import-profile.js';
import { buildRecordsChecking, recordsNoticeModal } from '../views/partner-records.js';
import { decodePreviewMetadata, encodePreviewMetadata, type PreviewMetadata } from '../views/records-preview.js';
import type { Surface } from '../views/text.js';

/** The file's start as the draft reads it (its encoding, delimiter, lines to skip, header), or why it cannot be read so. */
function sampleFor(bytes: Uint8Array, draft: ProfileDraft): FileSample | SampleProblem {
  return sampleOf(bytes, {
    encoding: draft.encoding ?? 'utf-8',
    delimiter: draft.delimiter ?? ',',
    skipAbove: draft.skipAbove ?? 0,
    header: draft.header ?? true,
  });
}

const sampleOnly = (read: FileSample | SampleProblem): FileSample | undefined => (isSample(read) ? read : undefined);

/**
 * The zones offered for a file's times (a select lists 100): the ledger's first, then UTC, then the
 * ledger's region (`Africa/…`), then the rest.
 */
export function zonesFor(ledgerTimeZone: string): string[] {
  const region = ledgerTimeZone.split('/')[0] ?? '';
  const all = Intl.supportedValuesOf('timeZone');
  return [...new Set([ledgerTimeZone, 'UTC', ...all.filter((zone) => zone.startsWith(`${region}/`)), ...all])];
}

/** The file of a builder's modal, kept while it is open so its submission answers within Slack's 3 seconds. */
const FILES_KEPT = 20;
const FILE_KEPT_MS = 15 * 60_000;

class OpenFiles {
  private readonly files = new Map<string, { fileId: string; bytes: Uint8Array; name: string; at: number }>();

  get(viewId: string, fileId: string, now: number): { bytes: Uint8Array; name: string } | undefined {
    const kept = this.files.get(viewId);
    return kept && kept.fileId === fileId && now - kept.at < FILE_KEPT_MS ? kept : undefined;
  }

  keep(viewId: string, fileId: string, file: { bytes: Uint8Array; name: string }, now: number): void {
    this.files.delete(viewId);
    this.files.set(viewId, { fileId, ...file, at: now });
    for (const key of this.files.keys()) {
      if (this.files.size <= FILES_KEPT) break;
      this.files.delete(key);
    }
  }
}

export function registerImportProfileListeners(router: ListenerRouter, ctx: SlackContext): void {
  const open = new OpenFiles();

  /** The builder's file: kept, or downloaded again by its id; a notice when Slack does not give it. */
  const fileOf = async (client: WebClient, surface: Surface, viewId: string, fileId: string): Promise<{ bytes: Uint8Array; name: string } | ModalView> => {
    const now = ctx.clock.now().getTime();
    const kept = open.get(viewId, fileId, now);
    if (kept) return kept;
    const file = await downloadRecords(ctx, client, surface, fileId);
    if (!isModal(file)) open.keep(viewId, fileId, file, now);
    return file;
  };

  const builder = (surface: Surface, file: { name: string }, read: FileSample | SampleProblem, draft: ProfileDraft, metadata: PreviewMetadata) =>
    buildProfileModal(surface, {
      fileName: file.name,
      sample: sampleOnly(read),
      sampleProblem: isSample(read) ? undefined : read.problem,
      draft,
      privateMetadata: encodePreviewMetadata(metadata),
      timeZones: zonesFor(ctx.ledgerTimeZone),
      currencies: ctx.payoutSettings.currencies,
    });

  /** Answers a click in the modal: the builder drawn from `draftOf`, or a notice; the modal updated only if nobody changed it since. */
  const redraw = async (
    body: BlockAction,
    client: WebClient,
    context: Context,
    draftOf: (metadata: PreviewMetadata, surface: Surface) => Promise<{ draft: ProfileDraft; metadata: PreviewMetadata } | ModalView>,
  ) => {
    const userId = body.user.id;
    const surface = await readerSurfaceOf(context, userId)();
    const t = textsFor(surface.locale);
    const view = body.view;
    if (!view) return;
    let shown: ModalView;
    try {
      const metadata = decodePreviewMetadata(view.private_metadata);
      if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) shown = recordsNoticeModal(surface, t('access.noViewer'));
      else if (!ctx.records || !metadata) shown = recordsNoticeModal(surface, t('records.unavailable'));
      else {
        const drafted = await draftOf(metadata, surface);
        const file = isModal(drafted) ? drafted : await fileOf(client, surface, view.id, metadata.file);
        shown = isModal(drafted)
          ? drafted
          : isModal(file)
            ? file
            : builder(surface, file, sampleFor(file.bytes, drafted.draft), drafted.draft, drafted.metadata);
      }
    } catch (error) {
      const incident = randomUUID().slice(0, 8);
      ctx.logger.error({ err: error, incident }, 'could not draw the import profile builder');
      shown = recordsNoticeModal(surface, t('records.failed', { incident }));
    }
    // A double click draws the same modal twice: the second finds the hash changed and is dropped.
    await client.views.update({ view_id: view.id, hash: view.hash, view: shown }).catch((error: unknown) => {
      ctx.logger.warn({ err: error }, 'could not show the import profile builder');
    });
  };

  router.action<BlockAction>(RECORDS.makeProfile, async ({ ack, body, client, context }) => {
    await ack();
    await redraw(body, client, context, async (metadata, surface) => {
      // From the built-in layout (which names columns the file may lack): a blank draft, the columns to choose.
      if (metadata.profile === null) return { draft: newDraft(ctx.ledgerTimeZone), metadata };
      const start = await savedOrDefault(ctx, surface, metadata.profile);
      if (isModal(start)) return start;
      // A new profile from a saved one: its layout, without its name.
      return { draft: draftFromProfile({ ...start, name: '' }), metadata: { file: metadata.file, profile: null } };
    });
  });

  router.action<BlockAction>(RECORDS.editProfile, async ({ ack, body, client, context }) => {
    await ack();
    await redraw(body, client, context, async (metadata, surface) => {
      if (metadata.profile === null) return recordsNoticeModal(surface, textsFor(surface.locale)('records.unavailable'));
      const saved = await savedOrDefault(ctx, surface, metadata.profile);
      return isModal(saved) ? saved : { draft: draftFromProfile(saved), metadata };
    });
  });

  for (const actionId of Object.values(PROFILE.rebuild)) {
    router.action<BlockAction>(actionId, async ({ ack, body, client, context }) => {
      await ack();
      const values = body.view?.state.values ?? {};
      await redraw(body, client, context, async (metadata) => ({ draft: draftFromState(values), metadata }));
    });
  }

  router.view<ViewSubmitAction>(PROFILE.view, async ({ ack, body, view, client, context }) => {
    const userId = body.user.id;
    const surface = await readerSurfaceOf(context, userId)();
    const t = textsFor(surface.locale);
    const metadata = decodePreviewMetadata(view.private_metadata);
    if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) {
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('access.noViewer')) });
      return;
    }
    if (!ctx.records || !metadata) {
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('records.unavailable')) });
      return;
    }
    const file = await fileOf(client, surface, view.id, metadata.file);
    if (isModal(file)) {
      await ack({ response_action: 'update', view: file });
      return;
    }
    const values = view.state.values;
    const checked = profileFromState(values, sampleOnly(sampleFor(file.bytes, draftFromState(values))), surface);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    // Saved by its name: the same submission delivered twice saves the same profile once.
    const saved = await ctx.records.profiles.save(checked.profile, userId);
    if (!saved.ok) {
      ctx.logger.warn({ issues: saved.issues }, 'the builder gave a profile the store refused');
      await ack({ response_action: 'update', view: recordsNoticeModal(surface, t('records.unavailable')) });
      return;
    }
    const profile = saved.saved.profile;
    ctx.logger.info({ userId, replaced: saved.replaced }, 'import profile saved');
    await ack({ response_action: 'update', view: buildRecordsChecking(surface) });
    let shown: ModalView;
    try {
      shown = await previewView(ctx, client, surface, userId, file, metadata.file, { profile, by: 'name' });
    } catch (error) {
      const incident = randomUUID().slice(0, 8);
      ctx.logger.error({ err: error, incident }, 'could not preview a records file with a new profile');
      shown = recordsNoticeModal(surface, t('records.failed', { incident }));
    }
    await client.views.update({ view_id: view.id, view: shown }).catch((error: unknown) => {
      ctx.logger.warn({ err: error }, 'could not show the records preview');
    });
  });
}
