/**
 * Limits on the HTTP endpoint Slack posts to, so that unauthenticated clients cannot hold the bot's
 * memory: a body larger than any Slack payload is refused or cut before it is buffered for the
 * signature check, and a client that is slow to send its request is dropped within seconds.
 */
import type { RequestListener, Server, ServerOptions } from 'node:http';

export interface HttpLimits {
  /** The largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** Time a client has to send its request headers. */
  headersTimeoutMs: number;
  /** Time a client has to send its whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept between requests. */
  keepAliveTimeoutMs: number;
  /** How often Node looks for connections past the two timeouts above (its own default is 30 s). */
  timeoutCheckEveryMs: number;
  /** Connections open at once; more are closed as they arrive. */
  maxConnections: number;
}

export const HTTP_LIMITS: HttpLimits = {
  // The largest request this app's surfaces cause is a button click on one of its messages, which
  // carries the message's blocks back: the app keeps a message under ~12k characters of block text,
  // and its modals are smaller (a payout form submission is ~9 KB). Even all non-Latin text, which
  // Slack sends as \uXXXX and form encoding turns into 8 bytes a character, stays under ~100 KB.
  // Bolt's own default is 4 MB.
  maxBodyBytes: 128 * 1024,
  // Slack sends a small request at once and gives the app 3 s to answer.
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckEveryMs: 1_000,
  // Bounds what slow clients can hold to about 64 MB of bodies (maxConnections × maxBodyBytes).
  maxConnections: 500,
};

/**
 * Refuses a request whose declared body is over the limit with 413 before reading any of it, and
 * closes the connection after a request without a declared length, so that a body Bolt cuts at
 * its `bodyLimit` does not leave the rest of itself on a kept-alive connection.
 */
export function refuseLargeBodies(listener: RequestListener, maxBodyBytes: number): RequestListener {
  return (request, response) => {
    const declared = request.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodyBytes) {
      response.writeHead(413, { Connection: 'close' });
      response.end();
      return;
    }
    if (declared === undefined) response.shouldKeepAlive = false;
    listener(request, response);
  };
}

/** Options for `http.createServer`, which Bolt's HTTPReceiver takes as the second argument of `start()`. */
export function httpServerOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.timeoutCheckEveryMs,
  };
}

/** What `http.createServer` takes no option for. */
export function limitConnections(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.maxConnections;
}
