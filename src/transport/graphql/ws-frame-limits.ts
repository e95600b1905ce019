import type { WebSocket } from 'ws';

/**
 * The largest frame (message) a socket may send before its connection_init is
 * accepted: that message only carries a token. The server-wide limit (the HTTP body
 * limit) applies once the connection is acknowledged.
 */
export const PRE_INIT_MAX_FRAME_BYTES = 16 * 1024;

/** The part of ws's Receiver this module relies on (ws 8.23, lib/receiver.js). */
interface ReceiverWithLimit {
  _maxPayload: number;
}

/**
 * Sets the largest message this socket's next frames may carry. ws has one
 * `maxPayload` per server; its Receiver copies it into the private `_maxPayload` and
 * reads that field at every frame header (refusing with 1009 before buffering the
 * payload) and on every inflated chunk, so lowering it per socket holds a socket that
 * has not authenticated to a smaller frame than one that has. This is the one place
 * that touches the private field: the guard returns false (and changes nothing) if a
 * ws upgrade changes its shape, and test/e2e/security/ws-frame-limits.test.ts fails
 * if the per-socket limit stops taking effect.
 */
export function setFrameLimit(socket: WebSocket, maxBytes: number): boolean {
  const receiver = (socket as unknown as { _receiver?: Partial<ReceiverWithLimit> | null })._receiver;
  if (!receiver || typeof receiver._maxPayload !== 'number' || !Number.isInteger(maxBytes) || maxBytes < 1) return false;
  receiver._maxPayload = maxBytes;
  return true;
}
