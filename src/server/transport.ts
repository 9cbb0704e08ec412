// How the HTTP server treats requests that do not arrive properly: too slowly, malformed, or
// refused before their body was read. Each gets a Japanese answer like every other error, and
// a connection that has been refused is closed rather than read to its end.
import { STATUS_CODES, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from './errors';

/** Node's own timers for a request that must arrive whole within `requestTimeoutMs`. */
export function requestTimeouts(requestTimeoutMs: number): ServerOptions {
  return {
    requestTimeout: requestTimeoutMs,
    // Left at its default (60 s), headersTimeout is longer than requestTimeout, and Node then
    // swaps the two: the body had 60 s, not requestTimeout.
    headersTimeout: requestTimeoutMs,
    // Node looks for overdue requests only this often (every 30 s by default, which let a
    // trickled body run for 90 s); an overdue one is answered at most a second late.
    connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
  };
}

/** What Node could not hand to Fastify as a request: the answer's status and catalogue code. */
function clientErrorAnswer(code: string | undefined): [number, ErrorCode] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'REQUEST_TIMEOUT'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'BAD_REQUEST'];
  return [400, 'BAD_REQUEST'];
}

/** Fastify's clientErrorHandler: a request that did not arrive whole in time, or is not HTTP at
 *  all, is answered in Japanese (Fastify's own answer is English) and its connection closed. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node's own check: nothing may follow an answer already begun on this connection (an early
  // refusal, which closes it anyway).
  const begun = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent;
  if (socket.writable && !begun) {
    const [status, code] = clientErrorAnswer(error.code);
    const body = JSON.stringify(new ApiError(code).toBody());
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  // Closed once the answer is out: a client still sending is not read any further.
  socket.destroySoon();
}

/** True while the request's body is still arriving (inject()'s requests have no such flag). */
const bodyStillArriving = (raw: IncomingMessage) =>
  raw.complete === false && (raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0);

/** An answer given before the request's body has arrived whole (a refusal that did not need it:
 *  413, 415, 404, 429, 503) closes the connection: Node would otherwise read the rest, however
 *  large, to keep the connection for another request. */
export function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply): void {
  if (bodyStillArriving(request.raw)) reply.header('connection', 'close');
}
