// @ts-check
// socketio-socket.js — the /locking frames of editlock-client.js carried over Socket.IO
// (docs/protocol.md §12), for the demo's `?transport=socketio`. It looks like a WebSocket to the
// client: a request with a ref goes out as an emit with an acknowledgement, and the ack's
// {event, data} comes back as the frame with that ref; every event the server emits comes back as a
// frame without one. Reconnecting and `resume` stay the client's job, so Socket.IO's own
// reconnection is off.

import { io } from './vendor/socket.io.esm.min.js';
import { REFUSED_CODE, TOKEN_EXPIRED_CODE } from './editlock-client.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

/** @typedef {import('./editlock-client.js').Frame} Frame */
/** @typedef {import('./editlock-client.js').SocketLike} SocketLike */

/** @implements {SocketLike} */
export class SocketIoSocket {
  #socket;

  /**
   * @param {string} token the JWT, sent in the connect packet's `auth`
   * @param {string} [origin] the editlock server; default: the page's own
   */
  constructor(token, origin = location.origin) {
    this.readyState = CONNECTING;
    /** @type {((message: MessageEvent) => void) | null} */
    this.onmessage = null;
    /** @type {((close: CloseEvent) => void) | null} */
    this.onclose = null;
    /** @type {((error: Event) => void) | null} */
    this.onerror = null;
    this.#socket = io(`${origin}/locking`, { auth: { token }, reconnection: false, forceNew: true });
    this.#socket.on('connect', () => { this.readyState = OPEN; });
    this.#socket.onAny((event, data) => this.#deliver({ event, data }));
    this.#socket.on('connect_error', (error) => this.#ended(refusalCode(error.message), error.message));
    this.#socket.on('disconnect', (reason) => this.#ended(reason === 'io client disconnect' ? 1000 : 1006, reason));
  }

  /** @param {string} text one frame of the client */
  send(text) {
    /** @type {Frame} */
    const { event, data, ref } = JSON.parse(text);
    if (ref === undefined) {
      this.#socket.emit(event, data);
    } else {
      this.#socket.emit(event, data, (/** @type {Frame} */ reply) => this.#deliver({ ...reply, ref }));
    }
  }

  /**
   * 1000/1001: a clean close (`disconnect`, locks freed at once); any other code: a drop, kept for a resume.
   * @param {number} [code]
   */
  close(code = 1000) {
    if (code === 1000 || code === 1001) {
      this.#socket.disconnect();
    } else if (this.#socket.io.engine) {
      this.#socket.io.engine.close();
    }
  }

  /** @param {Frame} frame */
  #deliver(frame) {
    if (this.onmessage) {
      this.onmessage(new MessageEvent('message', { data: JSON.stringify(frame) }));
    }
  }

  /**
   * @param {number} code
   * @param {string} reason
   */
  #ended(code, reason) {
    if (this.readyState === CLOSED) {
      return;
    }
    this.readyState = CLOSED;
    if (this.onclose) {
      this.onclose(new CloseEvent('close', { code, reason }));
    }
  }
}

/**
 * How a refused connection (docs/protocol.md §12) ends for the client: a refused token as one that ended
 * (a token provider's fresh one may do), a foreign Origin for good; anything else (too many sockets, the
 * network) as a drop that another attempt, after the back-off, may get past.
 * @param {string} message the `connect_error`'s message
 * @returns {number} the close code
 */
function refusalCode(message) {
  switch (message) {
    case 'UNAUTHORIZED': return TOKEN_EXPIRED_CODE;
    case 'FORBIDDEN': return REFUSED_CODE;
    default: return 1006;
  }
}

/**
 * The `openSocket` option of EditlockClient: the URL is Socket.IO's own, `/socket.io/` on the page's host.
 * @param {string} url
 * @param {string} token
 * @returns {SocketIoSocket}
 */
export function openSocketIo(url, token) {
  return new SocketIoSocket(token);
}
