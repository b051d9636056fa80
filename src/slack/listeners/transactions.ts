/**
 * Finding transactions: `/fleet transactions` (with or without a search), its Previous / Next /
 * Share / Filter buttons, the Filter modal, and `/fleet ledger`. A search reads the ledger; the plain
 * newest-first list reads the Fleet API, live, as it did before the ledger existed.
 */
import type { BlockAction, ButtonAction, RespondArguments, ViewOutput, ViewSubmitAction } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../account/account-reader.js';
import { textsFor, type Texts } from '../../i18n/index.js';
import {
  isEmptySearch,
  ledgerFilterFor,
  parseTransactionQuery,
  searchFromFields,
  type QueryProblem,
  type SearchFieldName,
  type SearchFields,
} from '../../ledger/query-text.js';
import type { SlackContext } from '../context.js';
import { openThenFill, type ModalOrRefusal } from '../open-then-fill.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { failureText } from '../refusals/failures.js';
import { ACTIONS, HOME, TRANSACTION_FILTER } from '../ids.js';
import type { Subcommand } from '../subcommands.js';
import { ensureViewer } from '../viewers.js';
import { loadingModal, notice, noticeModal, privateNotice } from '../views/notice.js';
import { buildLedgerStatusMessage } from '../views/ledger-status.js';
import { ANY, buildTransactionFilterModal } from '../views/transaction-filter.js';
import { buildQueryProblemMessage, buildSearchResultsMessage, buildTransactionsMessage, decodePageRequest, type PageRequest } from '../views/transactions.js';
import { plainWithin, type Surface } from '../views/text.js';

const LIMITS = { maxPageSize: MAX_PAGE_SIZE };
const FIRST_PAGE: PageRequest = { page: 1, pageSize: DEFAULT_PAGE_SIZE };

export function transactionsSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'transactions',
    aliases: ['tx', 'txs'],
    audience: 'viewers',
    help: (t) => [{ usage: t('transactions.help.usage'), description: t('transactions.help.description') }],
    async run({ command, respond, readerSurface }) {
      const surface = await readerSurface();
      // The words after the subcommand as typed, so that quoted phrases keep their spaces.
      const text = command.text.trim().replace(/^\S+\s*/u, '');
      const read = parseTransactionQuery(text, { locale: surface.locale });
      if (!read.ok) {
        await respond({ response_type: 'ephemeral', ...buildQueryProblemMessage(surface, read.problem, LIMITS) });
        return;
      }
      const { search, page, pageSize } = read.query;
      await respond({ response_type: 'ephemeral', replace_original: false, ...(await transactionsReply(ctx, surface, { page, pageSize, search })).reply });
    },
  };
}

export function ledgerSubcommand(ctx: SlackContext): Subcommand {
  return {
    name: 'ledger',
    localNames: { fr: 'registre' },
    audience: 'viewers',
    help: (t) => [{ usage: t('ledger.help.usage'), description: t('ledger.help.description') }],
    async run({ respond, readerSurface }) {
      const surface = await readerSurface();
      let reply: RespondArguments;
      try {
        reply = buildLedgerStatusMessage(surface, ctx.ledger ? await ctx.ledger.status() : undefined, ctx.ledgerTimeZone);
      } catch (error) {
        reply = notice(surface, failureText(surface.locale, error, 'readLedgerStatus', ctx.logger));
      }
      await respond({ response_type: 'ephemeral', ...reply });
    },
  };
}

/**
 * The page asked for, from the ledger when it can answer: a search, or the plain list once the
 * ledger holds the whole history. Pages read from the ledger are pinned to the point their first
 * page was read at (`asOf`), so Next, Previous and Share show that same list while entries arrive.
 * Without the ledger, or while its history loads, the plain list is read from the Fleet API.
 */
async function transactionsReply(
  ctx: SlackContext,
  surface: Surface,
  request: PageRequest,
  sharedBy?: string,
): Promise<{ ok: boolean; reply: RespondArguments }> {
  const search = request.search ?? {};
  try {
    const status = ctx.ledger ? await ctx.ledger.status() : undefined;
    if (isEmptySearch(search) && !status?.historyComplete) {
      const page = await ctx.account.transactions(Math.max(1, request.page), request.pageSize, { signal: AbortSignal.timeout(ctx.readTimeoutMs) });
      return { ok: true, reply: buildTransactionsMessage(surface, page, { filterButton: ctx.ledger !== undefined, ...(sharedBy ? { sharedBy } : {}) }) };
    }
    if (!ctx.ledger || !status) return { ok: false, reply: notice(surface, textsFor(surface.locale)('transactions.needsLedger')) };
    const filter = { ...ledgerFilterFor(search, ctx.ledgerTimeZone), ...(request.asOf === undefined ? {} : { storedUpTo: request.asOf }) };
    // Buttons read by keyset from the page shown (or from the end); a typed page number by offset.
    const position = request.position ?? (request.page > 0 ? { offset: (request.page - 1) * request.pageSize } : { last: true as const });
    const found = await ctx.ledger.find(filter, { ...position, limit: request.pageSize });
    // The last page is numbered once the total is known exactly; beyond 10,000 it is counted from the end.
    const page = 'last' in position ? (found.totalCapped ? -1 : Math.max(1, Math.ceil(found.total / request.pageSize))) : request.page;
    const reply = buildSearchResultsMessage(
      surface,
      {
        search,
        page,
        pageSize: request.pageSize,
        entries: found.entries,
        total: found.total,
        totalCapped: found.totalCapped,
        hasPrevious: found.hasPrevious,
        hasNext: found.hasNext,
        ...(found.bounds ? { bounds: found.bounds } : {}),
        ...(request.position ? { position: request.position } : {}),
        storedUpTo: found.storedUpTo,
        newer: found.newer,
        status,
        timeZone: ctx.ledgerTimeZone,
      },
      sharedBy ? { sharedBy } : {},
    );
    return { ok: true, reply };
  } catch (error) {
    return { ok: false, reply: notice(surface, failureText(surface.locale, error, sharedBy ? 'shareTransactions' : 'readTransactions', ctx.logger)) };
  }
}

// What comes back in private_metadata is only where to answer: the search itself is read from the fields.
const filterMetadataSchema = z.object({
  responseUrl: z
    .string()
    .regex(/^https?:\/\/\S+$/)
    .max(1000)
    .optional(),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE),
});

function readFilterMetadata(raw: string | undefined): z.infer<typeof filterMetadataSchema> {
  try {
    const parsed = filterMetadataSchema.safeParse(JSON.parse(raw ?? ''));
    if (parsed.success) return parsed.data;
  } catch {
    // fall through: no answer address, the default page size
  }
  return { pageSize: DEFAULT_PAGE_SIZE };
}

const FIELD_BLOCKS = {
  currency: TRANSACTION_FILTER.currency,
  type: TRANSACTION_FILTER.type,
  direction: TRANSACTION_FILTER.direction,
  since: TRANSACTION_FILTER.since,
  until: TRANSACTION_FILTER.until,
  min: TRANSACTION_FILTER.min,
  max: TRANSACTION_FILTER.max,
  text: TRANSACTION_FILTER.text,
} as const satisfies Record<SearchFieldName, string>;

/** The modal's fields from Slack's `state.values`, an "any" option read as no filter. */
function readFilterFields(view: ViewOutput): SearchFields {
  const fields: SearchFields = {};
  for (const [name, blockId] of Object.entries(FIELD_BLOCKS) as [SearchFieldName, string][]) {
    const entry = view.state.values[blockId]?.[TRANSACTION_FILTER.input];
    const value = entry?.selected_option?.value ?? entry?.selected_date ?? entry?.value ?? undefined;
    if (typeof value === 'string' && value !== '' && value !== ANY) fields[name] = value;
  }
  return fields;
}

/** A field's problem as plain text (modal errors are not mrkdwn). */
function fieldProblemText(t: Texts, problem: QueryProblem): string {
  const word = `"${plainWithin(problem.word, 60)}"`;
  switch (problem.code) {
    case 'dates_reversed':
      return t('transactions.modal.untilBeforeSince');
    case 'amounts_reversed':
      return t('transactions.modal.maxBelowMin');
    case 'bad_page_size':
      return t('transactions.problem.bad_page_size', { word, max: MAX_PAGE_SIZE });
    case 'too_long':
      return t('transactions.problem.too_long', { word, max: 300 });
    default:
      return t(`transactions.problem.${problem.code}`, { word });
  }
}

/** Answers through a response_url kept from the message the Filter button was on. */
async function postToResponseUrl(url: string, body: RespondArguments): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`response_url answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
}

export function registerTransactionsListeners(router: ListenerRouter, ctx: SlackContext): void {
  // From the home tab, which has no conversation to answer in: the first page goes to the person's direct messages.
  router.action<BlockAction<ButtonAction>>(HOME.transactions, async ({ ack, body, client, context }) => {
    await ack();
    const userId = body.user.id;
    if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) return;
    const { reply } = await transactionsReply(ctx, await readerSurfaceOf(context, userId)(), FIRST_PAGE);
    const { text = '', blocks } = reply as { text?: string; blocks?: KnownBlock[] };
    try {
      await client.chat.postMessage({ channel: userId, text, ...(blocks ? { blocks } : {}), unfurl_links: false });
    } catch (error) {
      ctx.logger.warn({ err: error, userId }, 'could not send transactions to a direct message');
    }
  });
  router.action<BlockAction<ButtonAction>>(new RegExp(`^${ACTIONS.transactionsPage}:`), async ({ ack, body, action, respond, context }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    const surface = await readerSurfaceOf(context, body.user.id)();
    const request = decodePageRequest(action.value, MAX_PAGE_SIZE) ?? FIRST_PAGE;
    await respond({ response_type: 'ephemeral', replace_original: true, ...(await transactionsReply(ctx, surface, request)).reply });
  });

  router.action<BlockAction<ButtonAction>>(ACTIONS.transactionsShare, async ({ ack, body, action, respond }) => {
    await ack();
    if (!(await ensureViewer(ctx, body.user.id, respond))) return;
    const request = decodePageRequest(action.value, MAX_PAGE_SIZE) ?? FIRST_PAGE;
    // Shared into the channel: written in the channel's language.
    const { ok, reply } = await transactionsReply(ctx, ctx.surface, request, body.user.id);
    await respond({ response_type: ok ? 'in_channel' : 'ephemeral', replace_original: false, ...reply });
  });

  router.action<BlockAction<ButtonAction>>(ACTIONS.transactionsFilter, async ({ ack, body, action, client, respond, context }) => {
    await ack();
    let surface = ctx.surface;
    // The viewer check and the reader's language may each ask Slack: a loading view opens first when they are slow.
    const lookups = async (): Promise<ModalOrRefusal> => {
      const allowed = await ctx.access.allows(ctx.accessLists.viewers, body.user.id);
      surface = await readerSurfaceOf(context, body.user.id)();
      if (!allowed) {
        ctx.logger.info({ userId: body.user.id }, 'refused account data to a non-viewer');
        return { refusal: textsFor(surface.locale)('access.noViewer') };
      }
      const request = decodePageRequest(action.value, MAX_PAGE_SIZE) ?? FIRST_PAGE;
      const metadata = JSON.stringify({ responseUrl: body.response_url, pageSize: request.pageSize });
      return {
        view: buildTransactionFilterModal(surface, {
          search: request.search ?? {},
          currencies: ctx.payoutSettings.currencies,
          timeZone: ctx.ledgerTimeZone,
          privateMetadata: metadata,
        }),
      };
    };
    const title = () => textsFor(surface.locale)('transactions.modal.title');
    try {
      const refused = await openThenFill(client, body.trigger_id, lookups(), {
        loading: () => loadingModal(surface, title(), TRANSACTION_FILTER.view),
        refusal: (text) => noticeModal(surface, { title: title(), text, callbackId: TRANSACTION_FILTER.view }),
        failure: (error) =>
          noticeModal(surface, { title: title(), text: failureText(surface.locale, error, 'openFilter', ctx.logger), callbackId: TRANSACTION_FILTER.view }),
      });
      if (refused) await respond(privateNotice(surface, refused.refusal, { replaceOriginal: false }));
    } catch (error) {
      await respond(privateNotice(surface, failureText(surface.locale, error, 'openFilter', ctx.logger), { replaceOriginal: false }));
    }
  });

  router.view<ViewSubmitAction>(TRANSACTION_FILTER.view, async ({ ack, body, view, context }) => {
    const userId = body.user.id;
    const surface = await readerSurfaceOf(context, userId)();
    const t = textsFor(surface.locale);
    if (!(await ctx.access.allows(ctx.accessLists.viewers, userId))) {
      ctx.logger.info({ userId }, 'refused a transaction search to a non-viewer');
      await ack({ response_action: 'errors', errors: { [TRANSACTION_FILTER.text]: plainWithin(t('access.noViewerPlain'), 150) } });
      return;
    }
    const read = searchFromFields(readFilterFields(view), { locale: surface.locale });
    if (!read.ok) {
      const errors = Object.fromEntries(
        Object.entries(read.errors).map(([field, problem]) => [FIELD_BLOCKS[field as SearchFieldName], fieldProblemText(t, problem)]),
      );
      await ack({ response_action: 'errors', errors });
      return;
    }
    await ack();
    const metadata = readFilterMetadata(view.private_metadata);
    if (!metadata.responseUrl) return;
    const { reply } = await transactionsReply(ctx, surface, { page: 1, pageSize: metadata.pageSize, search: read.search });
    try {
      await postToResponseUrl(metadata.responseUrl, { response_type: 'ephemeral', replace_original: true, ...reply });
    } catch (error) {
      ctx.logger.warn({ err: error }, 'could not answer a transaction search from the Filter modal');
    }
  });
}
