/**
 * Limits on the HTTP endpoint Slack posts to, so that unauthenticated clients cannot hold the bot's
 * memory nor keep Slack out: a body larger than any Slack payload is refused or cut before it is
 * buffered for the signature check, a client that is slow to send its request is dropped within
 * seconds, and at the connection cap the least useful connection makes room for a new one.
 */
import type { IncomingMessage, RequestListener, Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

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
  /** Connections open at once; past it, the one waiting longest for a request is closed (see limitConnections). */
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

interface OpenConnection {
  /** Order of the last step: connected, request head received, or answer sent. */
  since: number;
  /** Whether a whole request head has come on it: a client that speaks HTTP promptly, as Slack does. */
  served: boolean;
  /** The request whose head arrived and whose answer is not sent yet. */
  request: IncomingMessage | undefined;
}

/**
 * Keeps at most `maxConnections` open without ever turning a new connection away while an idle or
 * slow one holds a place. Past the cap one connection is closed to make room: the oldest still
 * sending its first request head; failing that, the one idle longest between requests or sending a
 * body for longest. A request received whole and being answered is never cut; only when every place
 * holds one is the newcomer closed. (Node's own `server.maxConnections` closes the newcomer always,
 * which at the cap is Slack's request too.) Slack sends a small request at once on connecting, so
 * its connection is never the oldest of the slow ones.
 */
export function limitConnections(server: Server, limits: HttpLimits): void {
  const open = new Map<Socket, OpenConnection>();
  let step = 0;
  server.on('connection', (socket: Socket) => {
    open.set(socket, { since: ++step, served: false, request: undefined });
    socket.once('close', () => open.delete(socket));
    if (open.size <= limits.maxConnections) return;
    const victim = leastUseful(open, socket) ?? socket;
    open.delete(victim);
    victim.destroy();
  });
  server.on('request', (request: IncomingMessage, response) => {
    const connection = open.get(request.socket);
    if (!connection) return;
    Object.assign(connection, { request, served: true, since: ++step });
    response.once('finish', () => {
      if (connection.request !== request) return;
      Object.assign(connection, { request: undefined, since: ++step });
    });
  });
}

/** The connection to close for `newcomer`: see limitConnections. None when every other one is being answered. */
function leastUseful(open: Map<Socket, OpenConnection>, newcomer: Socket): Socket | undefined {
  let neverServed: [Socket, number] | undefined;
  let idleOrSending: [Socket, number] | undefined;
  for (const [socket, { since, served, request }] of open) {
    if (socket === newcomer || (request && request.complete)) continue;
    if (!served) {
      if (!neverServed || since < neverServed[1]) neverServed = [socket, since];
    } else if (!idleOrSending || since < idleOrSending[1]) {
      idleOrSending = [socket, since];
    }
  }
  return (neverServed ?? idleOrSending)?.[0];
}
