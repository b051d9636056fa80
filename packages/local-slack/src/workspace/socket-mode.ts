/**
 * Slack's Socket Mode server side: WebSocket URLs handed out by `apps.connections.open`, the `hello`
 * greeting, envelopes sent to one connected app, their acknowledgements, and `disconnect` on close.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { normalizeAckPayload, type EnvelopeType } from './delivery.js';
import type { AckResult, WorkspaceChange } from './types.js';

export type { EnvelopeType } from './delivery.js';

export interface SocketModeHubOptions {
  appId: string;
  ackTimeoutMs: number;
  nextId: (prefix: string) => string;
  onChange: (change: WorkspaceChange) => void;
}

export class SocketModeHub {
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly sockets: WebSocket[] = [];
  private readonly pendingAcks = new Map<string, (payload: unknown) => void>();
  private turn = 0;

  constructor(private readonly options: SocketModeHubOptions) {}

  /** A single-use WebSocket URL, as `apps.connections.open` returns. */
  issueUrl(httpBaseUrl: string): string {
    const ticket = this.options.nextId('ticket-');
    this.tickets.add(ticket);
    return `${httpBaseUrl.replace(/^http/, 'ws')}/socket?ticket=${encodeURIComponent(ticket)}`;
  }

  get connected(): boolean {
    return this.openSockets().length > 0;
  }

  /** Accepts an upgrade to `/socket` carrying a ticket we issued; refuses anything else. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const ticket = url.searchParams.get('ticket');
    if (url.pathname !== '/socket' || !ticket || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    this.sockets.push(ws);
    ws.on('message', (data) => this.onMessage(data));
    ws.on('close', () => {
      this.sockets.splice(this.sockets.indexOf(ws), 1);
      this.options.onChange({ type: 'app_disconnected' });
    });
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.sockets.length,
        debug_info: { host: 'local-slack', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.options.appId },
      }),
    );
    this.options.onChange({ type: 'app_connected' });
  }

  private onMessage(data: RawData): void {
    let message: unknown;
    try {
      message = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'));
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || !('envelope_id' in message)) return;
    const envelope = message as { envelope_id: unknown; payload?: unknown };
    const settle = typeof envelope.envelope_id === 'string' ? this.pendingAcks.get(envelope.envelope_id) : undefined;
    settle?.(envelope.payload);
  }

  private openSockets(): WebSocket[] {
    return this.sockets.filter((ws) => ws.readyState === WebSocket.OPEN);
  }

  /** Sends an envelope to one connection (round robin, as Slack spreads events) and waits for its ack. */
  deliver(type: EnvelopeType, payload: unknown): Promise<AckResult> {
    const sockets = this.openSockets();
    const socket = sockets[this.turn++ % Math.max(sockets.length, 1)];
    if (!socket) return Promise.reject(new Error('no app is connected over Socket Mode'));
    const envelopeId = this.options.nextId('envelope-');
    const started = performance.now();
    return new Promise<AckResult>((resolve) => {
      const timer = setTimeout(() => {
        this.pendingAcks.delete(envelopeId);
        resolve({ status: 0, body: undefined, elapsedMs: performance.now() - started });
      }, this.options.ackTimeoutMs);
      this.pendingAcks.set(envelopeId, (ackPayload) => {
        clearTimeout(timer);
        this.pendingAcks.delete(envelopeId);
        resolve({ status: 200, body: normalizeAckPayload(ackPayload), elapsedMs: performance.now() - started });
      });
      // Events take no answer payload; Slack says so, and numbers redeliveries.
      const extra = type === 'events_api' ? { accepts_response_payload: false, retry_attempt: 0, retry_reason: '' } : { accepts_response_payload: true };
      socket.send(JSON.stringify({ envelope_id: envelopeId, type, payload, ...extra }));
    });
  }

  /** Asks every connected app to reconnect, as Slack does before recycling a connection. */
  disconnectAll(reason = 'refresh_requested'): void {
    for (const ws of this.openSockets()) {
      ws.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'local-slack' } }));
    }
  }

  /** Tells connected apps the link is going away, then closes each socket cleanly (forcibly after a second). */
  async close(): Promise<void> {
    this.disconnectAll('link_disabled');
    await Promise.all(
      [...this.sockets].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            const timer = setTimeout(() => {
              ws.terminate();
              resolve();
            }, 1000);
            ws.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            if (ws.readyState === WebSocket.OPEN) ws.close(1001, 'server closing');
          }),
      ),
    );
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
