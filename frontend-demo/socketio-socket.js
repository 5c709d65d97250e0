// socketio-socket.js — the /locking frames of editlock-client.js carried over Socket.IO
// (docs/protocol.md §12), for the demo's `?transport=socketio`. It looks like a WebSocket to the
// client: a request with a ref goes out as an emit with an acknowledgement, and the ack's
// {event, data} comes back as the frame with that ref; every event the server emits comes back as a
// frame without one. Reconnecting and `resume` stay the client's job, so Socket.IO's own
// reconnection is off.

import { io } from './vendor/socket.io.esm.min.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

export class SocketIoSocket {
  /**
   * @param {string} token the JWT, sent in the connect packet's `auth`
   * @param {string} [origin] the editlock server; default: the page's own
   */
  constructor(token, origin = location.origin) {
    this.readyState = CONNECTING;
    this.onmessage = null;
    this.onclose = null;
    this.onerror = null;
    this._socket = io(`${origin}/locking`, { auth: { token }, reconnection: false, forceNew: true });
    this._socket.on('connect', () => { this.readyState = OPEN; });
    this._socket.onAny((event, data) => this._deliver({ event, data }));
    this._socket.on('connect_error', (error) => {
      // Refused identity is final, as a 1008 close is for the WebSocket client.
      const refused = error.message === 'UNAUTHORIZED' || error.message === 'FORBIDDEN';
      this._ended(refused ? 1008 : 1006, error.message);
    });
    this._socket.on('disconnect', (reason) => this._ended(reason === 'io client disconnect' ? 1000 : 1006, reason));
  }

  send(text) {
    const { event, data, ref } = JSON.parse(text);
    if (ref === undefined) {
      this._socket.emit(event, data);
    } else {
      this._socket.emit(event, data, (reply) => this._deliver({ ...reply, ref }));
    }
  }

  /** 1000/1001: a clean close (`disconnect`, locks freed at once); any other code: a drop, kept for a resume. */
  close(code = 1000) {
    if (code === 1000 || code === 1001) {
      this._socket.disconnect();
    } else if (this._socket.io.engine) {
      this._socket.io.engine.close();
    }
  }

  _deliver(frame) {
    if (this.onmessage) {
      this.onmessage({ data: JSON.stringify(frame) });
    }
  }

  _ended(code, reason) {
    if (this.readyState === CLOSED) {
      return;
    }
    this.readyState = CLOSED;
    if (this.onclose) {
      this.onclose({ code, reason });
    }
  }
}

/** The `openSocket` option of EditlockClient: the URL is Socket.IO's own, `/socket.io/` on the page's host. */
export function openSocketIo(url, token) {
  return new SocketIoSocket(token);
}
