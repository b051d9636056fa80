/**
 * Bolt global middleware for what every request shares: its reader, the surface of the person who
 * made it (their language, the SANDBOX mark). It is resolved at most once per request, and only when
 * a listener first asks for it, so that no request waits on the store or on Slack before its
 * listener acknowledges it.
 */
import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import { surfaceFor, type PersonLocales } from '../locales.js';
import type { Surface } from '../views/text.js';

const READER = 'reader';

interface Reader {
  userId: string;
  surface: () => Promise<Surface>;
}

/** Puts on each request's context the reader's surface, resolved on first use and kept for the request. */
export function readerMiddleware(ctx: { surface: Surface; locales: PersonLocales }): Middleware<AnyMiddlewareArgs> {
  return async ({ context, next }) => {
    const userId = context.userId;
    if (userId) {
      let resolved: Promise<Surface> | undefined;
      const reader: Reader = { userId, surface: () => (resolved ??= surfaceFor(ctx, userId)) };
      context[READER] = reader;
    }
    await next();
  };
}

/** The surface of `userId`, the person who made the request `context` belongs to, as `readerMiddleware` resolves it. */
export function readerSurfaceOf(context: Context, userId: string): () => Promise<Surface> {
  const reader = context[READER] as Reader | undefined;
  // Bolt reads the person from the request as the listener does; a difference is a wiring mistake.
  if (reader?.userId !== userId) throw new Error('the reader of this Slack request was not resolved by readerMiddleware');
  return reader.surface;
}
