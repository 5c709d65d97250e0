// @ts-check
// editlock-client.js — the browser client of the editlock server (docs/protocol.md).
// One ES module, no dependencies. It owns the WebSocket /locking: requests return promises for
// their direct reply, broadcasts arrive as DOM events, drops are survived with `resume`.

/** @typedef {'filters' | 'dependencies' | 'attributes'} Page */

/**
 * A lockable thing, as the server names it.
 * @typedef {object} Resource
 * @property {'configurator' | 'variables' | 'item-subresource'} type
 * @property {number} [configuratorId] missing only for an item that does not exist
 * @property {number} [itemId]         item pages only
 * @property {Page} [page]             item pages only
 */

/**
 * An edit lock. `token` (the fencing token, for the `Lock-Token` header of REST writes) is only
 * present in your own locks.
 * @typedef {object} Lock
 * @property {Resource} resource
 * @property {string} ownerUserId
 * @property {string} ownerUserName
 * @property {string} acquiredAt ISO-8601
 * @property {string} expiresAt  ISO-8601, the lease's end as of that message
 * @property {number} [token]
 */

/**
 * A take-over request of yours that stands (docs/protocol.md §13), as `takeover-pending` answered it.
 * @typedef {object} Takeover
 * @property {Resource} resource the lock asked for
 * @property {string} deadline ISO-8601, when its consent window ends
 */

/**
 * `welcome`, the first frame of every socket.
 * @typedef {object} Welcome
 * @property {string} socketId
 * @property {string} userId
 * @property {string} userName
 * @property {string} resumeToken
 */

/**
 * @typedef {'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed'} ConnectionState
 */

/**
 * @typedef {object} EditlockClientOptions
 * @property {string | (() => string | Promise<string>)} token the JWT, or a token provider: a function that
 *   returns a valid one (called for every connection, and before the socket's token ends, to renew it
 *   on the open socket with `reauth`). With a plain string the socket ends with its token (close 4401).
 * @property {string} [url] the socket URL; default: `/locking` on the page's own host (ws: or wss:)
 * @property {'protocol' | 'query'} [tokenIn='protocol'] how the token travels at the upgrade: as the subprotocol
 *   `bearer.<jwt>` next to `editlock` (kept out of proxies' access logs), or as `?access_token=`
 * @property {number} [reauthLeadMs=60000] renew the token this long before it ends (at most half its remaining life)
 * @property {number} [reauthRetryMs=5000] wait before trying again when a renewal failed
 * @property {number} [requestTimeoutMs=10000] a request sent without a reply by then is rejected (code `TIMEOUT`)
 *   and the socket is treated as dead (dropped and reconnected). A request made while no socket is ready waits
 *   for one without a time limit (its time starts when it is sent); it is rejected (`CLOSED`) when the client
 *   stops for good, its first connection fails, or `close()` is called. A token provider that has not answered by
 *   then fails the attempt (`TIMEOUT`): the first `connect()` rejects, a reconnect is tried again after the
 *   back-off, a renewal is `reauth-failed`
 * @property {number} [touchIntervalMs=30000] at most one `touch` per this interval, on user activity
 * @property {number} [backoffBaseMs=500] first reconnect delay; doubles per attempt, with jitter
 * @property {number} [backoffMaxMs=15000] longest reconnect delay
 * @property {number[]} [resumeRetryDelaysMs=[500, 1000, 2000, 3000, 4000]] waits before each retry of a
 *   `resume` refused with `RESUME_FAILED` (the server may not have noticed the drop yet) or `UNAVAILABLE`
 *   (the lock store did not answer in time: the token is still good); the locks are asked for again
 *   (a re-entry keeps the grant), and the lines too (a `wait-for` keeps a place still held), right after
 *   the first refusal, while these retries go on for the take-over requests
 * @property {number[]} [unlockRetryDelaysMs=[500, 1000, 2000, 4000, 8000]] waits before each new try of an
 *   unlock or a `stop-waiting` answered `UNAVAILABLE` or lost with its socket; the last one repeats until
 *   the server answers
 * @property {number} [takeoverAnswerGraceMs=5000] a take-over request that outlived a drop and is still unanswered
 *   this long after its deadline is reported lost (`lock-failed` `DISCONNECTED`): its outcome came while
 *   no socket was open
 * @property {number} [consentWindowMs=30000] the server's consent window (`editlock.waiting.consent-window`): a
 *   take-over request whose reply was lost ends by then, and `takeoverAnswerGraceMs` later this client stops
 *   keeping it for a resume
 * @property {EventTarget | null} [activityTarget=window] where pointer and keyboard activity is listened to;
 *   `null` disables automatic touches
 * @property {boolean} [closeOnPageHide=true] on `pagehide`: when the page goes into the back/forward cache,
 *   close cleanly (1000) so that its locks are freed at once; when it unloads (a reload, a link, a closed tab),
 *   leave the socket to the browser, which closes it with 1001, and keep the resume token for the next page
 * @property {Storage | null} [resumeStorage=sessionStorage] where the resume token outlives a reload of the tab;
 *   `null` starts every page without the locks of the one before
 * @property {string} [resumeStorageKey='editlock.resume'] its key there
 * @property {number[]} [reloadResumeRetryDelaysMs=[250, 500, 1000]] waits before each retry of the `resume` a
 *   reloaded page sends (the server may not have seen the old page's close yet); short, as the server keeps a
 *   reloaded page's locks only for its reload grace (3 s by default)
 * @property {((url: string, token: string) => SocketLike) | null} [openSocket] opens the socket instead of a
 *   WebSocket to `url` (with the token as `tokenIn` says). Anything with the WebSocket's
 *   send/close/readyState/onmessage/onclose will do (socketio-socket.js: the same frames over Socket.IO)
 */

/**
 * What the client needs of a socket: a WebSocket, or anything that behaves like one (`openSocket`). A wire
 * that knows why a connection was refused closes with {@link TOKEN_EXPIRED_CODE} for a refused token and
 * {@link REFUSED_CODE} for a refusal no new attempt changes; any other code is reconnected.
 * @typedef {object} SocketLike
 * @property {(text: string) => void} send
 * @property {(code?: number, reason?: string) => void} close
 * @property {number} readyState 1 when open
 * @property {((message: MessageEvent) => void) | null} onmessage
 * @property {((close: CloseEvent) => void) | null} onclose
 * @property {((error: Event) => void) | null} onerror
 */

/**
 * One frame of the protocol, either way.
 * @typedef {object} Frame
 * @property {string} event
 * @property {any} [data]
 * @property {string} [ref] the request's reference, echoed by its direct reply
 */

/**
 * What a refusal's data may carry (`lock-failed`, `unlock-failed`, `error`).
 * @typedef {object} RefusalData
 * @property {string} [code]
 * @property {string} [message]
 * @property {Resource} [resource]
 * @property {string} [lockedBy]
 * @property {string} [lockedByUserId]
 * @property {Lock} [blocking]
 */

/**
 * Why a lock ended (`lock-lost`, `lock-released`; docs/protocol.md §4).
 * @typedef {'unlock' | 'disconnect' | 'replaced' | 'expired' | 'idle' | 'admin' | 'deleted' | 'taken-over'} LockEndReason
 */

/**
 * The codes of a `lock-failed` event: the server's, and `DISCONNECTED` for a take-over request whose outcome
 * was lost with the connection.
 * @typedef {'LOCKED' | 'NOT_FOUND' | 'NOT_HELD' | 'BUSY' | 'RATE_LIMITED' | 'UNAVAILABLE' | 'DISCONNECTED'} LockFailedCode
 */

/**
 * `lock-updated`: the whole lock state of a watched configurator.
 * @typedef {object} LockUpdatedDetail
 * @property {number} configuratorId
 * @property {Lock[]} locks
 * @property {Record<string, number>} [waiting] the number of waiters per resource (canonical string) with a line
 */

/**
 * `lock-released`: a lock in a watched configurator was released.
 * @typedef {object} LockReleasedDetail
 * @property {Resource} resource
 * @property {LockEndReason} reason
 * @property {string} ownerUserId the former holder
 * @property {string} ownerUserName
 */

/**
 * `lock-lost`: one of your locks was taken away.
 * @typedef {object} LockLostDetail
 * @property {Resource} resource
 * @property {LockEndReason} reason
 * @property {EditlockError} [refusal] after a drop: why asking for it again failed
 */

/**
 * `content-changed`: a REST write changed a watched configurator (docs/protocol.md §8).
 * @typedef {object} ContentChangedDetail
 * @property {number} configuratorId
 * @property {'configurator' | 'item' | 'filter' | 'dependency' | 'attribute-value' | 'variable'} entity
 * @property {number} id the written entity's id (of the root, for a delete that cascades)
 * @property {'created' | 'updated' | 'deleted'} op
 */

/**
 * `lock-acquired` as an event: a grant from a waiting line (`queued`), or a lock asked for again after a drop
 * that came back with another token (`retaken`). The lock requests' own grants resolve their promises instead.
 * @typedef {object} LockAcquiredDetail
 * @property {Lock} lock with its `token`
 * @property {Resource[]} released what the one-configurator rule took away (docs/protocol.md §2)
 * @property {true} [queued]
 * @property {true} [retaken]
 */

/**
 * `lock-failed` as an event: a take-over request or a waiting line that ended without the lock.
 * @typedef {object} LockFailedDetail
 * @property {Resource} resource
 * @property {LockFailedCode} code
 * @property {string} message
 * @property {string} [lockedBy] with `LOCKED`: the name of the user whose lock is in the way
 * @property {string} [lockedByUserId]
 * @property {Lock} [blocking] with `LOCKED`: the lock in the way
 */

/**
 * `takeover-granted`: the lock a take-over request asked for is yours now.
 * @typedef {object} TakeoverGrantedDetail
 * @property {Lock} lock with its `token`
 */

/**
 * `takeover-refused`: the holder kept the lock.
 * @typedef {object} TakeoverRefusedDetail
 * @property {Resource} resource
 * @property {string} byUserName the holder who refused
 */

/**
 * `takeover-requested`: another user asks you for one of your locks (answer with `answerTakeover`).
 * @typedef {object} TakeoverRequestedDetail
 * @property {Resource} resource
 * @property {string} byUserId
 * @property {string} byUserName
 * @property {string} message `""` when they gave none
 * @property {string} deadline ISO-8601, when the consent window ends
 */

/**
 * `queue-updated`: your place in a waiting line.
 * @typedef {object} QueueUpdatedDetail
 * @property {Resource} resource
 * @property {number} position 1 = next
 */

/**
 * `not-waiting`: this client no longer waits in a line.
 * @typedef {object} NotWaitingDetail
 * @property {Resource} resource
 * @property {'stopped' | 'disconnect' | 'idle' | 'expired' | 'ended'} reason
 * @property {EditlockError} [refusal] after a drop: why the line could not be joined again
 */

/**
 * `statechange`: the connection's state changed.
 * @typedef {object} StateChangeDetail
 * @property {ConnectionState} state
 * @property {ConnectionState} previous
 */

/**
 * `connected`: a socket is open and ready.
 * @typedef {object} ConnectedDetail
 * @property {Welcome} welcome
 * @property {boolean} reconnected
 */

/**
 * `disconnected`: the socket went away.
 * @typedef {object} DisconnectedDetail
 * @property {number} code the close code
 * @property {string} reason
 * @property {boolean} willReconnect
 */

/**
 * `reconnecting`: the next attempt is scheduled.
 * @typedef {object} ReconnectingDetail
 * @property {number} attempt
 * @property {number} delayMs
 */

/**
 * `resumed`: the locks recovered after a drop or a reload of the page.
 * @typedef {object} ResumedDetail
 * @property {Lock[]} locks with their tokens
 * @property {boolean} reload
 * @property {Takeover[]} takeovers the take-over requests the resumed socket kept
 */

/**
 * `reauthed`: the fresh token now identifies the open socket.
 * @typedef {object} ReauthedDetail
 * @property {string} expiresAt ISO-8601
 */

/**
 * `reauth-failed`: a renewal failed.
 * @typedef {object} ReauthFailedDetail
 * @property {unknown} error what the token provider threw, or the `EditlockError` of the refused `reauth`
 */

/**
 * The events of an {@link EditlockClient}, by name: each a `CustomEvent` whose `detail` is the event's data.
 * @typedef {object} EditlockClientEventMap
 * @property {CustomEvent<LockUpdatedDetail>} lock-updated
 * @property {CustomEvent<LockReleasedDetail>} lock-released
 * @property {CustomEvent<LockLostDetail>} lock-lost
 * @property {CustomEvent<ContentChangedDetail>} content-changed
 * @property {CustomEvent<LockAcquiredDetail>} lock-acquired
 * @property {CustomEvent<LockFailedDetail>} lock-failed
 * @property {CustomEvent<TakeoverGrantedDetail>} takeover-granted
 * @property {CustomEvent<TakeoverRefusedDetail>} takeover-refused
 * @property {CustomEvent<TakeoverRequestedDetail>} takeover-requested
 * @property {CustomEvent<QueueUpdatedDetail>} queue-updated
 * @property {CustomEvent<NotWaitingDetail>} not-waiting
 * @property {CustomEvent<StateChangeDetail>} statechange
 * @property {CustomEvent<ConnectedDetail>} connected
 * @property {CustomEvent<DisconnectedDetail>} disconnected
 * @property {CustomEvent<ReconnectingDetail>} reconnecting
 * @property {CustomEvent<ResumedDetail>} resumed
 * @property {CustomEvent<ReauthedDetail>} reauthed
 * @property {CustomEvent<ReauthFailedDetail>} reauth-failed
 */

/**
 * An `EventTarget` whose listeners know the client's events ({@link EditlockClientEventMap}); any other
 * name is accepted as by any `EventTarget`. The base type of {@link EditlockClient}: types only.
 * @typedef {{
 *   addEventListener<K extends keyof EditlockClientEventMap>(type: K,
 *     listener: (this: EditlockClient, event: EditlockClientEventMap[K]) => any,
 *     options?: boolean | AddEventListenerOptions): void;
 *   addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
 *     options?: boolean | AddEventListenerOptions): void;
 *   removeEventListener<K extends keyof EditlockClientEventMap>(type: K,
 *     listener: (this: EditlockClient, event: EditlockClientEventMap[K]) => any,
 *     options?: boolean | EventListenerOptions): void;
 *   removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
 *     options?: boolean | EventListenerOptions): void;
 * } & EventTarget} EditlockEventTarget
 */

/** The pages of an item. */
export const PAGES = Object.freeze(['filters', 'dependencies', 'attributes']);

/** Close code the client uses for a socket it gives up on (the server counts it as a drop). */
const DROP_CODE = 4000;

/**
 * Close code of a server node that goes away (a deploy stops it, docs/protocol.md §5); its locks wait for
 * a resume on another node for the grace period only.
 */
const GOING_AWAY_CODE = 1001;

/**
 * Attempts made at the first delay, without backing off, after the server went away: a balancer that does
 * not know yet that the node stops may send some of them back to it, and the resume must come within the
 * grace period (10 s by default).
 */
const QUICK_ATTEMPTS_AFTER_GOING_AWAY = 8;
/** How long after leaving a line a grant from it is still released rather than announced. */
const LEFT_LINE_GRACE_MS = 5000;
/** Refusals of an unlock after which the lock may still be the user's: the unlock goes again. */
const UNLOCK_AGAIN = new Set(['UNAVAILABLE', 'DISCONNECTED', 'TIMEOUT']);
/** A remembered resume token older than this is not tried: the locks it named are gone by then. */
const RELOAD_RESUME_MAX_AGE_MS = 60_000;
/**
 * Close code of the server for a socket whose token ended (docs/protocol.md §3): only a fresh token, from a
 * token provider, can open the next socket. An `openSocket` wire reports a token refused at connection so too.
 */
export const TOKEN_EXPIRED_CODE = 4401;
/**
 * Close code an `openSocket` wire reports for a connection refused for a reason no new attempt changes (a
 * foreign Origin, docs/protocol.md §3). The server never closes an open socket for good: every close it
 * initiates is a drop (§5).
 */
export const REFUSED_CODE = 4403;
/** The longest delay setTimeout keeps (about 24 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'];
/** WebSocket.OPEN */
const OPEN = 1;

/**
 * A request refused by the server (`lock-failed`, `unlock-failed`, `error`), or one that got no
 * reply (`TIMEOUT`, `DISCONNECTED`, `CLOSED`).
 */
export class EditlockError extends Error {
  /**
   * @param {string} code `LOCKED`, `NOT_FOUND`, `RATE_LIMITED`, `UNAVAILABLE`, `NOT_HELD`,
   *   `BAD_REQUEST`, `RESUME_FAILED`, `TIMEOUT`, `DISCONNECTED`, `CLOSED`
   * @param {string} message
   * @param {RefusalData} [data] the reply's data
   */
  constructor(code, message, data = {}) {
    super(message);
    this.name = 'EditlockError';
    /** @type {string} */
    this.code = code;
    /** @type {Resource | undefined} what was requested */
    this.resource = data.resource;
    /** @type {string | undefined} the name of the user whose lock refused it (`LOCKED`) */
    this.lockedBy = data.lockedBy;
    /** @type {string | undefined} */
    this.lockedByUserId = data.lockedByUserId;
    /** @type {Lock | undefined} the other user's lock that refused it (`LOCKED`) */
    this.blocking = data.blocking;
  }
}

/**
 * Whether a request failed without an answer of the server's (its socket went, or no reply came in time): unlike a
 * refusal, the server may have carried it out on the old socket, and a `resume` moves what it made there (a place
 * in line, a take-over request) to the new one (docs/protocol.md §5, §13, §14).
 * @param {unknown} failure
 * @returns {boolean}
 */
function unanswered(failure) {
  return failure instanceof EditlockError && (failure.code === 'DISCONNECTED' || failure.code === 'TIMEOUT');
}

/**
 * When a JWT ends (its `exp`, in ms), read without verifying (the server verifies); NaN if unreadable.
 * @param {string} token
 * @returns {number}
 */
export function tokenExpiry(token) {
  try {
    const payload = String(token).split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const exp = JSON.parse(atob(payload.padEnd(payload.length + ((4 - (payload.length % 4)) % 4), '='))).exp;
    return typeof exp === 'number' ? exp * 1000 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * The canonical string of a resource: `configurator:12`, `configurator:12:variables`, `item:5:filters`.
 * @param {Resource} resource
 * @returns {string}
 */
export function resourceKey(resource) {
  switch (resource.type) {
    case 'configurator': return `configurator:${resource.configuratorId}`;
    case 'variables': return `configurator:${resource.configuratorId}:variables`;
    default: return `item:${resource.itemId}:${resource.page}`;
  }
}

/**
 * The resource a canonical string names (the inverse of {@link resourceKey}). An item page comes back
 * without its `configuratorId`, which requests of §13 and §14 may leave out.
 * @param {string} key
 * @returns {Resource}
 */
function resourceOfKey(key) {
  const [kind, id, page] = key.split(':');
  if (kind === 'item') {
    return { type: 'item-subresource', itemId: Number(id), page: /** @type {Page} */ (page) };
  }
  return { type: page === 'variables' ? 'variables' : 'configurator', configuratorId: Number(id) };
}

/**
 * The canonical string of what a lock or unlock request names.
 * @param {string} event `lock-…` or `unlock-…`
 * @param {object} data its data
 * @returns {string}
 */
function keyOfRequest(event, data) {
  return resourceKey(/** @type {Resource} */ ({ type: event.replace(/^(un)?lock-/, ''), ...data }));
}

/**
 * Whether `held`, held by another user, refuses a request for `wanted` (the conflict table,
 * docs/protocol.md §2). `wanted` must carry its `configuratorId`. The only copy of the table in the
 * client: {@link blockingLock} and the demo ask it.
 * @param {Resource} wanted
 * @param {Resource} held
 * @returns {boolean}
 */
export function conflicts(wanted, held) {
  if (wanted.configuratorId !== held.configuratorId) {
    return false;
  }
  if (wanted.type === 'configurator' || held.type === 'configurator') {
    return true;
  }
  if (wanted.type === 'variables' || held.type === 'variables') {
    return wanted.type === held.type;
  }
  return wanted.itemId === held.itemId && wanted.page === held.page;
}

/**
 * The lock among `locks` that refuses `userId` a request for `wanted`: another user's lock that
 * {@link conflicts} with it (a user's own locks never refuse them).
 * @param {Resource} wanted
 * @param {Lock[]} locks
 * @param {string} userId
 * @returns {Lock | undefined}
 */
export function blockingLock(wanted, locks, userId) {
  return locks.find((lock) => lock.ownerUserId !== userId && conflicts(wanted, lock.resource));
}

/**
 * The request that locks `resource`, and the one that releases it.
 * @param {Resource} resource
 * @returns {{lock: string, unlock: string, data: {configuratorId?: number, itemId?: number, page?: Page}}}
 */
function requestsFor(resource) {
  if (resource.type === 'item-subresource') {
    return {
      lock: 'lock-item-subresource', unlock: 'unlock-item-subresource',
      data: { itemId: resource.itemId, page: resource.page },
    };
  }
  return { lock: `lock-${resource.type}`, unlock: `unlock-${resource.type}`, data: { configuratorId: resource.configuratorId } };
}

/**
 * One socket of the client, and what the client keeps about it.
 * @internal
 * @typedef {object} Link
 * @property {SocketLike} socket
 * @property {{resolve: (welcome: Welcome) => void, reject: (error: Error) => void} | null} first
 *   the `connect()` waiting for this socket, on the first one
 * @property {boolean} [welcomed] its `welcome` came: a close after that is a drop, even on the first socket
 * @property {number} tokenExpiresAt when the token it was opened with ends (ms), NaN if unknown
 * @property {string} [recovering] its own resume token, while it resumes what the socket before it kept
 */

/**
 * A request waiting for its reply.
 * @internal
 * @typedef {object} Pending
 * @property {(frame: Frame) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {ReturnType<typeof setTimeout> | undefined} timer its time limit, from when it is sent
 * @property {string[]} expect the reply events that mean success
 * @property {boolean} queued not sent yet (waiting for a ready socket)
 */

/**
 * The connection to editlock. Events (each a `CustomEvent`, its `detail` is the event's data; their types:
 * {@link EditlockClientEventMap}):
 *
 * - `lock-updated` `{configuratorId, locks}` — the whole lock state of a watched configurator
 * - `lock-released` `{resource, reason, ownerUserId, ownerUserName}` — a lock in a watched configurator was released
 * - `lock-lost` `{resource, reason}` — one of your locks was taken away (`expired`, `admin`, `idle`,
 *   `replaced`, `disconnect`, `deleted`); also when a drop could not be resumed, even if asking again
 *   got the page anew: then `lock-acquired` `{lock, released, retaken: true}` follows with the new grant.
 *   One for a lock this client does not hold (another tab's grant) is not emitted
 * - `content-changed` `{configuratorId, entity, id, op}` — a REST write changed a watched configurator
 * - `statechange` `{state, previous}` — see {@link ConnectionState}
 * - `connected` `{welcome, reconnected}` — a socket is open and ready (after a reconnect: resumed and re-watched)
 * - `disconnected` `{code, reason, willReconnect}` — the socket went away; without a reconnect to come
 *   (a plain token that ended, a refused connection) `lock-lost`, `not-waiting` and `lock-failed` follow
 *   for all the client had
 * - `reconnecting` `{attempt, delayMs}` — the next attempt is scheduled
 * - `resumed` `{locks, reload, takeovers}` — after a drop (`reload` false) or a reload of the page (`reload` true),
 *   these locks were recovered (same grants, same tokens); `takeovers` lists the take-over requests the resumed
 *   socket kept (after a reload: those the page before made, which this page now keeps). One granted meanwhile
 *   is among `locks`, and its `takeover-granted` follows; a lock a line of this client's granted meanwhile is
 *   among them too, and its `lock-acquired` (`queued: true`) follows
 * - `reauthed` `{expiresAt}` — the token provider's fresh token now identifies the open socket, until `expiresAt`
 * - `reauth-failed` `{error}` — a renewal failed; it is tried again while the token lasts (after that the
 *   socket is closed with 4401 and reconnected with a fresh token, its locks resumed)
 * - `takeover-granted`, `takeover-refused`, `takeover-requested`, `lock-failed`, `lock-acquired` (`queued: true`),
 *   `queue-updated` — take-over and waiting lines, see {@link EditlockClient#requestTakeover} and
 *   {@link EditlockClient#waitFor}
 * - `not-waiting` `{resource, reason, refusal}` — this client no longer waits in a line: `reason` `disconnect`
 *   when it could not be rejoined after a drop (or the client stopped); when the server ended the place
 *   unasked, its reason: `stopped` (another client of the same user stopped waiting: the place is the
 *   user's), `idle` (the user sent nothing for the idle timeout), `expired` (the server lost touch with
 *   its store for longer than a place lasts), or `ended` (the server did not see why)
 *
 * @example
 * const client = new EditlockClient({ token });
 * await client.connect();
 * try {
 *   const lock = await client.lockItemPage(5, 'filters');
 *   fetch('/api/items/5/filters', { method: 'POST', headers: { 'Lock-Token': String(lock.token) }, ... });
 * } catch (e) {
 *   if (e.code === 'LOCKED') show(`Currently edited by ${e.lockedBy}.`);
 * }
 */
export class EditlockClient extends (/** @type {{new (): EditlockEventTarget}} */ (EventTarget)) {
  /** @type {Link | null} the current socket */
  #link = null;
  #ready = false;
  #nextRef = 1;
  /** @type {Map<string, Pending>} */
  #pending = new Map();
  /** @type {Array<() => void>} requests waiting for a ready socket */
  #queue = [];
  #attempt = 0;
  /** reconnect attempts still to make at the first delay: the server node went away (1001) */
  #quickAttempts = 0;
  /** of this drop's attempts, those made at the first delay */
  #quickMade = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #reconnectTimer = undefined;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  #reauthTimer = undefined;
  /** @type {string | null} */
  #resumeToken = null;
  /**
   * The tokens of the latest sockets that dropped while a `resume` onto them was under way, newest first:
   * the server may have moved everything onto one of them before its reply was lost.
   * @type {string[]}
   */
  #interruptedTokens = [];
  /**
   * `takeover-requested` events held back while a `resume` is under way: the server sends them for the
   * locks it moves before its `resumed` reply (docs/protocol.md §13), and until that reply this client
   * does not know it holds them. Null when nothing is held back.
   * @type {object[] | null}
   */
  #heldBackRequests = null;
  /** @type {Set<string>} the locks the app released whose unlock the server has not answered yet */
  #releasing = new Set();
  /** @type {Set<string>} the lines the app left whose stop-waiting the server has not answered yet */
  #leaving = new Set();
  /** @type {Map<string, {ended: boolean}>} take-over requests sent whose takeover-pending reply has not come yet */
  #askingTakeover = new Map();
  /**
   * Who asked for each lock in the last `takeover-requested` told (canonical string -> `byUserId`), until that
   * request ends here (its answer's reply, the lock lost): `answerTakeover` names them, so that an answer meant
   * for an asker who left answers nobody rather than the next asker (docs/protocol.md §13).
   * @type {Map<string, string>}
   */
  #askedBy = new Map();
  /**
   * The locks in `locks` that this client's socket keeps (docs/protocol.md §2): asked for by this client (a lock
   * request, a grant of its own line or take-over request) or resumed onto it. The others are grants of the
   * user's other tabs, which every socket of the user hears of (§13, §14): shown, but never asked for again
   * after a drop, for a re-entry would keep the page the user's after the tab that wanted it closed.
   * @type {Set<string>}
   */
  #kept = new Set();
  /**
   * The lines this client joined itself (its `wait-for`, also one still unanswered), by canonical string; for the
   * same reason only these are joined again after a drop. `waiting` also shows the places of the user's other tabs.
   * @type {Set<string>}
   */
  #joined = new Set();
  /**
   * Lines whose `wait-for` got no answer (its socket dropped, or its reply did not come in time), kept in `#joined`:
   * the server may have taken the user in on the old socket, and a resume moves the place here (docs/protocol.md
   * §14), so a grant of that line is this client's to keep. Until the line's end is heard (a grant, `not-waiting`,
   * `lock-failed`, a `wait-for` answered), or a resume fails.
   * @type {Set<string>}
   */
  #maybeJoined = new Set();
  /**
   * Take-over requests whose `takeover-pending` did not come (dropped with the socket, or timed out): the request
   * may stand all the same and move with a resume (§13), so its grant is this client's to keep. Until its outcome,
   * an answered request for the same page, a resume that fails, or the end of the consent window it may have opened.
   * @type {Map<string, object>} the mark of each, which only its own timer takes away
   */
  #maybeAsked = new Map();
  /** @type {Link['first']} the `connect()` still waiting for its first socket, which close() must not leave pending */
  #first = null;
  /** Counts the close() calls: a socket whose token came after one belongs to a connect() that is over. */
  #epoch = 0;
  /**
   * The open under way (its token being fetched), null if none: another must not open beside it. Only that open
   * ends it, not one that close() left behind.
   * @type {object | null}
   */
  #opening = null;
  /** @type {Set<ReturnType<typeof setTimeout>>} timers that end with the client: see {@link #watchResumedTakeovers}, {@link stopWaiting} */
  #timers = new Set();
  #lastTouch = 0;
  #closedByUser = false;
  #pausedByPageHide = false;
  /** @type {Promise<Welcome> | null} */
  #connectPromise = null;
  #onActivity = () => this.#maybeTouch();
  /** @param {PageTransitionEvent} event */
  #onPageHide = (event) => this.#pageHidden(event);
  /** @param {PageTransitionEvent} event */
  #onPageShow = (event) => { if (event.persisted) this.#reopenAfterPageShow(); };
  #onOnline = () => this.#reconnectNow();
  #onOffline = () => this.#drop('browser offline');

  /** @param {EditlockClientOptions} options */
  constructor(options) {
    super();
    if (!options || !options.token) {
      throw new TypeError('EditlockClient needs a token');
    }
    this.options = {
      requestTimeoutMs: 10000,
      touchIntervalMs: 30000,
      backoffBaseMs: 500,
      backoffMaxMs: 15000,
      resumeRetryDelaysMs: [500, 1000, 2000, 3000, 4000],
      unlockRetryDelaysMs: [500, 1000, 2000, 4000, 8000],
      takeoverAnswerGraceMs: 5000,
      consentWindowMs: 30000,
      activityTarget: typeof window === 'undefined' ? null : window,
      closeOnPageHide: true,
      openSocket: null,
      resumeStorage: typeof window !== 'undefined' && window.sessionStorage ? window.sessionStorage : null,
      resumeStorageKey: 'editlock.resume',
      reloadResumeRetryDelaysMs: [250, 500, 1000],
      tokenIn: 'protocol',
      reauthLeadMs: 60000,
      reauthRetryMs: 5000,
      ...options,
    };
    /** @type {ConnectionState} */
    this.state = 'idle';
    /** @type {Welcome | null} the current socket's welcome */
    this.welcome = null;
    /** @type {Map<string, Lock>} the locks this client holds, by canonical string, with their tokens; also the
     *  grants the user's other tabs got from a line or a take-over, which every socket of the user is told of */
    this.locks = new Map();
    /** @type {Set<number>} configurators this client watches (re-watched after a reconnect) */
    this.watched = new Set();
    /** @type {Map<string, number>} the lines this user waits in (canonical string -> position, 1 = next) */
    this.waiting = new Map();
    /** @type {Map<string, Takeover>} this client's take-over requests that stand (canonical string -> the
     *  request), until their outcome arrives; a reloaded page takes over those of the page before */
    this.takeovers = new Map();
  }

  // ---- connection ---------------------------------------------------------------------------

  /**
   * Opens the socket. Resolves with the `welcome` once it is ready; rejects if the first attempt
   * fails (later drops are reconnected by themselves).
   * @returns {Promise<Welcome>}
   */
  connect() {
    if (this.#connectPromise) {
      return this.#connectPromise;
    }
    this.#closedByUser = false;
    this.#listen(true);
    this.#connectPromise = new Promise((resolve, reject) => {
      this.#first = { resolve, reject };
      this.#open(this.#first);
    });
    return this.#connectPromise;
  }

  /**
   * Closes the socket cleanly (1000): the server releases this socket's locks at once.
   * Pending and queued requests are rejected with `CLOSED`.
   * @param {string} [reason]
   */
  close(reason = 'client closed') {
    this.#closedByUser = true;
    this.#epoch += 1;
    this.#opening = null; // an open under way opens nothing now
    this.#listen(false);
    clearTimeout(this.#reconnectTimer);
    clearTimeout(this.#reauthTimer);
    this.#failAll('CLOSED', 'The connection was closed');
    // Before its welcome, or while the token provider runs: that connect() learns it will not open.
    const first = this.#first;
    this.#first = null;
    first?.reject(new EditlockError('CLOSED', 'The connection was closed'));
    if (this.#link) {
      const { socket } = this.#link;
      this.#link.first = null;
      this.#link = null;
      detach(socket);
      socket.close(1000, reason);
    }
    this.#ready = false;
    this.#connectPromise = null;
    this.locks.clear();
    this.#kept.clear();
    this.#askedBy.clear();
    this.#joined.clear();
    this.#maybeJoined.clear();
    this.#maybeAsked.clear();
    this.#releasing.clear();
    this.#leaving.clear();
    this.#timers.forEach((timer) => clearTimeout(timer));
    this.#timers.clear();
    this.waiting.clear();
    this.takeovers.clear();
    this.welcome = null;
    this.#resumeToken = null;
    this.#interruptedTokens = [];
    this.#heldBackRequests = null;
    this.#forgetRemembered();
    this.#setState('closed');
  }

  /**
   * Keeps the resume token of this socket in `resumeStorage` while the server keeps something for it
   * (locks, places in waiting lines, take-over requests), so that the next page this tab loads takes
   * them back (`resume` on connect) and learns its places in line again. Done by itself on `pagehide`.
   */
  rememberForReload() {
    const storage = this.options.resumeStorage;
    if (!storage) {
      return;
    }
    try {
      if (this.#resumeToken && this.welcome && this.#keepsSomething()) {
        // While a reconnect still resumes, what this client holds may be the new socket's already (re-taken
        // after a refused resume) or still the old one's: the next page presents both, newest first.
        const recovering = this.#link?.recovering;
        const resumeTokens = [...new Set([recovering, ...this.#interruptedTokens, this.#resumeToken])]
          .filter((token) => typeof token === 'string');
        storage.setItem(this.options.resumeStorageKey, JSON.stringify({
          resumeToken: resumeTokens[0], resumeTokens, userId: this.welcome.userId, at: Date.now(),
          waiting: this.#ownLines(), takeovers: [...this.takeovers.values()],
        }));
      } else {
        storage.removeItem(this.options.resumeStorageKey);
      }
    } catch {
      // Storage full or blocked: the next page starts without these locks, as without a reload grace.
    }
  }

  // ---- requests -----------------------------------------------------------------------------

  /** @param {number} configuratorId @returns {Promise<Lock>} */
  lockConfigurator(configuratorId) {
    return this.#lock('lock-configurator', { configuratorId });
  }

  /** @param {number} configuratorId @returns {Promise<Lock>} */
  lockVariables(configuratorId) {
    return this.#lock('lock-variables', { configuratorId });
  }

  /** @param {number} itemId @param {Page} page @returns {Promise<Lock>} */
  lockItemPage(itemId, page) {
    return this.#lock('lock-item-subresource', { itemId, page });
  }

  /**
   * Locks whatever `resource` names (convenience for apps that keep resources). Like every lock request it
   * rejects with `LOCKED` (with `blocking`), `NOT_FOUND`, `RATE_LIMITED`, `LIMIT_EXCEEDED` (the user holds as
   * many locks in this configurator as one user may, docs/protocol.md §4) or `UNAVAILABLE`.
   * @param {Resource} resource
   * @returns {Promise<Lock>}
   */
  lock(resource) {
    const { lock, data } = requestsFor(resource);
    return this.#lock(lock, data);
  }

  /** @param {number} configuratorId @returns {Promise<object>} the `lock-released` data */
  unlockConfigurator(configuratorId) {
    return this.#unlock('unlock-configurator', { configuratorId });
  }

  /** @param {number} configuratorId @returns {Promise<object>} */
  unlockVariables(configuratorId) {
    return this.#unlock('unlock-variables', { configuratorId });
  }

  /** @param {number} itemId @param {Page} page @returns {Promise<object>} */
  unlockItemPage(itemId, page) {
    return this.#unlock('unlock-item-subresource', { itemId, page });
  }

  /**
   * Releases whatever lock `resource` names (convenience for apps that keep resources).
   * @param {Resource} resource
   * @returns {Promise<object>}
   */
  unlock(resource) {
    const { unlock, data } = requestsFor(resource);
    return this.#unlock(unlock, data);
  }

  /**
   * Watches a configurator: resolves with its current lock state; `lock-updated`, `lock-released`
   * and `content-changed` of it follow as events. Re-watched after every reconnect.
   * @param {number} configuratorId
   * @returns {Promise<{configuratorId: number, locks: Lock[]}>}
   */
  async watch(configuratorId) {
    this.watched.add(configuratorId);
    const reply = await this.#request('watch', { configuratorId }, ['lock-updated']);
    this.#emit('lock-updated', reply.data);
    return reply.data;
  }

  /** @param {number} configuratorId @returns {Promise<{configuratorId: number}>} */
  async unwatch(configuratorId) {
    this.watched.delete(configuratorId);
    return (await this.#request('unwatch', { configuratorId }, ['unwatched'])).data;
  }

  /**
   * Tells the server the user is active (idle timeout). Sent by itself on user activity.
   * @returns {Promise<object>}
   */
  async touch() {
    this.#lastTouch = Date.now();
    return (await this.#request('touch', {}, ['touched'])).data;
  }

  /**
   * The lock this client holds on `resource`, if any (with its fencing token).
   * @param {Resource} resource
   * @returns {Lock | undefined}
   */
  heldLock(resource) {
    return this.locks.get(resourceKey(resource));
  }

  // ---- take-over and waiting (docs/protocol.md §13, §14) ----------------------------------------

  /**
   * Asks the holder of `resource` for it: the lock in your way, the `blocking` of a `LOCKED` refusal
   * (for an item page, that may be the configurator lock of someone editing the structure). Resolves
   * with `{resource, deadline}` once the request stands; the outcome arrives as an event:
   * `takeover-granted` (`{lock}`, now yours), `takeover-refused` (`{resource, byUserName}`) or
   * `lock-failed` (something else blocks you). Rejects with `NOT_HELD` (nothing is in your way: lock
   * it), `LOCKED` (another lock is in your way: its `blocking`), `BUSY` (someone else asked first) or
   * `NOT_FOUND`.
   * @param {Resource} resource
   * @param {string} [message] shown to the holder, at most 200 characters
   * @returns {Promise<Takeover>}
   */
  async requestTakeover(resource, message) {
    const data = message ? { resource, message } : { resource };
    const key = resourceKey(resource);
    const asking = { ended: false };
    const maybeBefore = this.#maybeAsked.delete(key); // an earlier request whose reply was lost: this reply tells
    this.#askingTakeover.set(key, asking);
    try {
      const reply = await this.#request('request-takeover', data, ['takeover-pending']);
      // The outcome travels apart from the reply and may come first: then the request is over already.
      if (!asking.ended) {
        this.takeovers.set(resourceKey(reply.data.resource), reply.data);
      }
      return reply.data;
    } catch (failure) {
      // A refusal asked for nothing (and leaves an earlier request as it was); a reply lost with its socket is no
      // refusal: the request may stand on the old socket, and a resume moves it here (docs/protocol.md §13).
      if (!asking.ended && this.state !== 'closed' && (unanswered(failure) || maybeBefore)) {
        this.#markMaybeAsked(key);
      }
      throw failure;
    } finally {
      if (this.#askingTakeover.get(key) === asking) {
        this.#askingTakeover.delete(key);
      }
    }
  }

  /**
   * Keeps a take-over request whose reply was lost until its outcome, or until it is over anyway: it was sent before
   * it failed, so the consent window it may have opened ends within `consentWindowMs` of now (docs/protocol.md §13).
   * An outcome that has not come a little after that went to a socket that is gone, as for a resumed request.
   * @param {string} key
   */
  #markMaybeAsked(key) {
    const mark = {};
    this.#maybeAsked.set(key, mark);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (this.#maybeAsked.get(key) === mark) {
        this.#maybeAsked.delete(key);
      }
    }, Math.min(this.options.consentWindowMs + this.options.takeoverAnswerGraceMs, MAX_TIMER_MS));
    this.#timers.add(timer);
  }

  /**
   * Answers a `takeover-requested`: `accept` true hands the lock over now, false keeps it. The answer names its
   * asker (`byUserId`), so it answers only that user's request: by default the asker of the last
   * `takeover-requested` this client told for `resource`. An app that shows a request in a dialog passes that
   * request's `byUserId`, for another user may have asked since.
   * Rejects with `NOT_FOUND` when no request is pending any more, or the one pending is another user's.
   * @param {Resource} resource
   * @param {boolean} accept
   * @param {string | null} [byUserId] the asker answered; null answers whichever request stands
   * @returns {Promise<{resource: Resource, accept: boolean}>}
   */
  async answerTakeover(resource, accept, byUserId) {
    const key = resourceKey(resource);
    const asker = byUserId === undefined ? this.#askedBy.get(key) : byUserId;
    /** @type {{resource: Resource, accept: boolean, byUserId?: string}} */
    const data = { resource, accept: Boolean(accept) };
    if (asker != null) {
      data.byUserId = asker;
    }
    let reply;
    try {
      reply = await this.#request('answer-takeover', data, ['takeover-answered']);
    } catch (failure) {
      // Nothing to answer: that request is over. Any other failure (UNAVAILABLE, a lost reply) may leave it
      // standing, to be answered again with the same asker.
      if (/** @type {EditlockError} */ (failure).code === 'NOT_FOUND') {
        this.#answered(key, asker);
      }
      throw failure;
    }
    this.#answered(key, asker);
    return reply.data;
  }

  /**
   * The request of `asker` for `key` was answered, or was found over: its asker is forgotten, unless another
   * user has asked since.
   * @param {string} key
   * @param {string | null | undefined} asker
   */
  #answered(key, asker) {
    if (this.#askedBy.get(key) === asker) {
      this.#askedBy.delete(key);
    }
  }

  /**
   * Waits in line for `resource`. Resolves with `{lock}` when it was free (granted at once), else with
   * `{resource, position}` (1 = next). Moving up arrives as `queue-updated`; being served as a
   * `lock-acquired` event whose `detail.queued` is true (the lock is then in `client.locks`).
   * Rejects with `LIMIT_EXCEEDED` (too many lines, or, for a page found free, too many locks in this
   * configurator) or `NOT_FOUND`.
   * @param {Resource} resource
   * @returns {Promise<{lock: Lock} | {resource: Resource, position: number}>}
   */
  async waitFor(resource) {
    const asked = resourceKey(resource);
    this.#leaving.delete(asked); // in line again: its grant is wanted
    // Joined from the moment it is asked: the line's grant may come before the reply, and this socket keeps it.
    const joinedBefore = this.#joined.has(asked);
    const maybeBefore = this.#maybeJoined.delete(asked); // an earlier wait-for whose reply was lost: this reply tells
    this.#joined.add(asked);
    /** @type {Frame} */
    let reply;
    try {
      reply = await this.#request('wait-for', { resource }, ['queued', 'lock-acquired']);
    } catch (failure) {
      // Unless the line ended meanwhile (served, deleted, left) or the client stopped: then there is nothing to keep.
      if (this.#joined.has(asked)) {
        if ((unanswered(failure) || maybeBefore) && this.state !== 'closed') {
          // No refusal: the server may have taken the user in on the old socket, and a resume moves the place here
          // (docs/protocol.md §14); a refusal leaves a place the user may have had as it was.
          this.#maybeJoined.add(asked);
        } else if (!joinedBefore) {
          this.#joined.delete(asked); // a refused wait-for leaves the user in no line it was not in (§14)
        }
      }
      throw failure;
    }
    if (reply.event === 'lock-acquired') {
      this.#replaced(reply.data.released);
      this.#hold(reply.data.lock, true);
      return { lock: reply.data.lock };
    }
    const key = resourceKey(reply.data.resource);
    const served = this.locks.get(key);
    if (served) {
      return { lock: served }; // the line served us before its reply came: the place is over
    }
    this.waiting.set(key, reply.data.position);
    return reply.data;
  }

  /**
   * Leaves the line for `resource` (also fine when not in it).
   * @param {Resource} resource
   * @returns {Promise<{resource: Resource}>}
   */
  async stopWaiting(resource) {
    const key = resourceKey(resource);
    this.#leaving.add(key);
    const delays = [...this.options.unlockRetryDelaysMs];
    try {
      for (;;) {
        try {
          const reply = await this.#request('stop-waiting', { resource }, ['not-waiting']);
          this.waiting.delete(key);
          this.#joined.delete(key);
          this.#maybeJoined.delete(key);
          return reply.data;
        } catch (failure) {
          const code = failure instanceof EditlockError ? failure.code : '';
          if (!UNLOCK_AGAIN.has(code) || this.#closedByUser || this.state === 'closed') {
            throw failure;
          }
          const delay = delays.length > 1 ? delays.shift() : delays[0];
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    } finally {
      // A grant published before the line was left may still be on its way (it travels apart from the reply).
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#leaving.delete(key);
      }, LEFT_LINE_GRACE_MS);
      this.#timers.add(timer);
    }
  }

  /**
   * @param {string} event
   * @param {object} data
   * @returns {Promise<Lock>}
   */
  async #lock(event, data) {
    this.#releasing.delete(keyOfRequest(event, data)); // the app wants the page again: its unlock is called off
    const reply = await this.#request(event, data, ['lock-acquired']);
    /** @type {{lock: Lock, released?: Resource[]}} */
    const { lock, released } = reply.data;
    this.#replaced(released);
    this.#hold(lock, true);
    return lock;
  }

  /**
   * Releases a lock, and sees it through: an unlock the store could not carry out (`UNAVAILABLE`: nothing
   * was released, docs/protocol.md §4), or whose reply was lost with its socket, goes again (on the next
   * socket after a drop) until the server answers it. Meanwhile a reconnect does not ask for the lock
   * again, for the app is done with it; locking the page again calls the unlock off. `NOT_HELD`: the
   * user holds nothing there any more (its lease ended meanwhile, say), so the lock is forgotten too.
   * @param {string} event
   * @param {object} data
   * @returns {Promise<object>}
   */
  async #unlock(event, data) {
    const key = keyOfRequest(event, data);
    this.#releasing.add(key);
    const delays = [...this.options.unlockRetryDelaysMs];
    for (;;) {
      try {
        const reply = await this.#request(event, data, ['lock-released']);
        this.#releasing.delete(key);
        this.#forget(reply.data.resource);
        return reply.data;
      } catch (failure) {
        const code = failure instanceof EditlockError ? failure.code : '';
        const again = UNLOCK_AGAIN.has(code) && this.#releasing.has(key) && !this.#closedByUser && this.state !== 'closed';
        if (!again) {
          if (this.#releasing.delete(key) && code === 'NOT_HELD') {
            this.#forget(resourceOfKey(key));
          }
          throw failure;
        }
        const delay = delays.length > 1 ? delays.shift() : delays[0];
        await new Promise((resolve) => setTimeout(resolve, delay));
        if (!this.#releasing.has(key)) {
          throw failure; // called off meanwhile: the page was locked again, and this unlock would end that grant
        }
      }
    }
  }

  /**
   * Sends one request and resolves with its direct reply (the whole frame).
   * @param {string} event
   * @param {object} data
   * @param {string[]} expect the reply events that mean success
   * @param {{immediate?: boolean}} [how] immediate: send on the open socket even before it is ready
   * @returns {Promise<Frame>}
   */
  #request(event, data, expect, how = {}) {
    if (this.#closedByUser || this.state === 'idle' || this.state === 'closed') {
      return Promise.reject(new EditlockError('CLOSED', 'Not connected: call connect() first'));
    }
    const open = this.#ready || (how.immediate && this.#link && this.#link.socket.readyState === OPEN);
    if (how.immediate && !open) {
      // The recovery of a socket that is gone: the next socket recovers on its own. One still closing (its close
      // event not come yet) is handled as closed first, so that the caller sees its socket gone: this is no
      // refusal, and the server keeps for a resume what it asked for (docs/protocol.md §5).
      this.#drop('connection closing');
      return Promise.reject(new EditlockError('DISCONNECTED', 'The connection was lost'));
    }
    return new Promise((resolve, reject) => {
      const ref = `r${this.#nextRef++}`;
      /** @param {Pending} pending */
      const send = (pending) => {
        pending.queued = false;
        // Timed from here: a wait for a socket is no sign that one is dead, and the reconnect has its own back-off.
        pending.timer = setTimeout(() => {
          if (this.#pending.get(ref) === pending) {
            this.#pending.delete(ref);
            reject(new EditlockError('TIMEOUT', `No reply to ${event}`));
            this.#drop('request timed out'); // sent and never answered: the socket is dead
          }
        }, this.options.requestTimeoutMs);
        if (!how.immediate) {
          this.#lastTouch = Date.now(); // the app's requests mark the user active on the server
        }
        this.#link?.socket.send(JSON.stringify({ event, data, ref }));
      };
      /** @type {Pending} */
      const pending = { resolve, reject, timer: undefined, expect, queued: true };
      this.#pending.set(ref, pending);
      if (open) {
        send(pending);
      } else {
        this.#queue.push(() => {
          if (this.#pending.get(ref) === pending) {
            send(pending); // not failed while queued
          }
        });
      }
    });
  }

  // ---- incoming frames ----------------------------------------------------------------------

  /** @param {string} text */
  #onFrame(text) {
    /** @type {Frame} */
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    const { event, data = {}, ref } = frame;
    if (event === 'welcome') {
      this.#welcomed(data);
      return;
    }
    const pending = ref === undefined ? undefined : this.#pending.get(ref);
    if (ref !== undefined && pending) {
      this.#pending.delete(ref);
      clearTimeout(pending.timer);
      this.#settle(pending, frame);
      return;
    }
    this.#broadcast(event, data);
  }

  /**
   * @param {Pending} pending
   * @param {Frame} frame its direct reply
   */
  #settle(pending, frame) {
    if (pending.expect.includes(frame.event)) {
      pending.resolve(frame);
      return;
    }
    /** @type {RefusalData} */
    const data = frame.data || {};
    pending.reject(new EditlockError(data.code || 'ERROR', data.message || frame.event, data));
  }

  /**
   * @param {string} event
   * @param {any} data
   */
  #broadcast(event, data) {
    switch (event) {
      case 'lock-lost':
        if (!data.resource || !this.heldLock(data.resource)) {
          return; // a lock this client does not hold: another tab's grant, or one not known here yet (docs/protocol.md §4)
        }
        this.#forget(data.resource);
        break;
      case 'lock-released': // released by another socket of ours: its lock-lost, which may come after, forgets it
      case 'lock-updated':
      case 'content-changed':
        break;
      case 'lock-acquired': // served from a waiting line (§14): the user's, kept by the sockets that asked
        if (data.lock && this.#servedAfterLeaving(data.lock)) {
          return;
        }
        if (data.lock) {
          this.#replaced(data.released);
          this.#hold(data.lock, this.#joined.has(resourceKey(data.lock.resource)));
        }
        break;
      case 'takeover-granted': // handed over with consent (§13): kept by the sockets that asked
        if (data.lock) {
          const key = resourceKey(data.lock.resource);
          this.#hold(data.lock, this.takeovers.has(key) || this.#askingTakeover.has(key) || this.#maybeAsked.has(key));
        }
        break;
      case 'queue-updated':
        this.waiting.set(resourceKey(data.resource), data.position);
        this.#maybeJoined.delete(resourceKey(data.resource)); // the place is known now: a line like any other
        break;
      case 'not-waiting': // a place that ended without our asking (docs/protocol.md §14)
        if (data.resource) {
          this.#joined.delete(resourceKey(data.resource));
          this.#maybeJoined.delete(resourceKey(data.resource));
        }
        if (!data.resource || !this.waiting.delete(resourceKey(data.resource))) {
          return;
        }
        this.#emit(event, { resource: data.resource, reason: data.reason || 'ended' });
        return;
      case 'takeover-refused':
      case 'lock-failed': // a take-over that something else blocked, or a line or take-over of a deleted page
        if (data.resource) {
          this.#takeoverEnded(resourceKey(data.resource));
          if (data.code === 'NOT_FOUND') {
            this.waiting.delete(resourceKey(data.resource)); // its line ended with it (docs/protocol.md §14)
            this.#joined.delete(resourceKey(data.resource));
            this.#maybeJoined.delete(resourceKey(data.resource));
          }
        }
        break;
      case 'takeover-requested':
        if (this.#heldBackRequests && !this.locks.has(resourceKey(data.resource))) {
          this.#heldBackRequests.push(data);
          return;
        }
        this.#noteAsker(data);
        break;
      default:
        return; // unknown or unsolicited: ignore
    }
    this.#emit(event, data);
  }

  /**
   * A grant from a line this client asked to leave, crossing its `stop-waiting`: the user holds the page
   * now (docs/protocol.md §14), but nobody here wants it, so it is released rather than announced.
   * @param {Lock} lock
   * @returns {boolean} whether it was
   */
  #servedAfterLeaving(lock) {
    if (!this.#leaving.has(resourceKey(lock.resource))) {
      return false;
    }
    this.#hold(lock, false); // given back at once: never one to ask for again
    this.unlock(lock.resource).catch(() => {});
    return true;
  }

  /**
   * A lock is ours now, however it came: a user granted a page leaves its line and its take-over
   * request for it (docs/protocol.md §11).
   * @param {Lock} lock
   * @param {boolean} kept this client's socket keeps it: it asked for it, or resumed it
   */
  #hold(lock, kept) {
    const key = resourceKey(lock.resource);
    const before = this.locks.get(key);
    this.locks.set(key, lock);
    if (kept) {
      this.#kept.add(key);
    } else if (before?.token !== lock.token) {
      this.#kept.delete(key); // another grant, which this socket did not ask for
    }
    this.waiting.delete(key);
    this.#joined.delete(key);
    this.#maybeJoined.delete(key);
    this.#takeoverEnded(key);
  }

  /**
   * Configurator locks that a grant took away by the one-configurator rule (docs/protocol.md §2, the grant's
   * `released`): the server tells the user's other sockets with `lock-lost` `replaced`, and this one only so.
   * @param {Resource[] | undefined} released
   */
  #replaced(released = []) {
    for (const resource of released) {
      if (this.heldLock(resource)) {
        this.#forget(resource);
        this.#emit('lock-lost', { resource, reason: 'replaced' });
      }
    }
  }

  /**
   * A take-over request for `key` came to its end, also one whose `takeover-pending` reply is still on
   * its way.
   * @param {string} key
   */
  #takeoverEnded(key) {
    this.takeovers.delete(key);
    this.#maybeAsked.delete(key);
    const asking = this.#askingTakeover.get(key);
    if (asking) {
      asking.ended = true;
    }
  }

  /**
   * Not what other tabs of the user got: the server keeps those for their sockets, not for this one. A request
   * whose reply was lost may have been carried out: what it made is kept for a resume too.
   * @returns {boolean} whether the server keeps anything for this client that a resume would keep
   */
  #keepsSomething() {
    return [...this.#kept].some((key) => this.locks.has(key)) || this.#ownLines().length > 0 || this.takeovers.size > 0
      || this.#maybeJoined.size > 0 || this.#maybeAsked.size > 0;
  }

  /** @returns {string[]} the lines this client waits in because it joined them itself */
  #ownLines() {
    return [...this.waiting.keys()].filter((key) => this.#joined.has(key));
  }

  /** @param {Resource | undefined} resource */
  #forget(resource) {
    if (resource) {
      this.locks.delete(resourceKey(resource));
      this.#kept.delete(resourceKey(resource));
      this.#askedBy.delete(resourceKey(resource)); // a request for a lock no longer held has ended with it
    }
  }

  // ---- socket lifecycle ---------------------------------------------------------------------

  /** @param {Link['first']} first the `connect()` waiting, on the first attempt */
  async #open(first) {
    this.#setState(first ? 'connecting' : 'reconnecting');
    const epoch = this.#epoch;
    /** @type {string} */
    let token;
    const opening = {};
    this.#opening = opening;
    try {
      const { token: given } = this.options;
      token = typeof given === 'function' ? await this.#askProvider(given) : given;
    } catch (failure) {
      if (epoch === this.#epoch) {
        this.#openFailed(first, /** @type {Error} */ (failure));
      }
      return;
    } finally {
      if (this.#opening === opening) {
        this.#opening = null; // not when close() came meanwhile and a newer open runs
      }
    }
    if (this.#closedByUser || epoch !== this.#epoch) {
      return; // closed meanwhile (which settled the connect() waiting), perhaps connected anew since
    }
    if (this.#link) {
      return; // another open of this connection got its socket first: one socket, not two beside each other
    }
    const socket = this.options.openSocket ? this.options.openSocket(this.#url(), token) : this.#openWebSocket(token);
    /** @type {Link} */
    const link = { socket, first, tokenExpiresAt: tokenExpiry(token) };
    this.#link = link;
    this.#ready = false;
    socket.onmessage = (message) => { if (this.#link === link) this.#onFrame(message.data); };
    socket.onclose = (close) => { if (this.#link === link) this.#closed(link, close.code, close.reason); };
    socket.onerror = () => { /* a close follows */ };
  }

  /**
   * Asks the token provider for a token, within `requestTimeoutMs`: one that does not answer (a fetch without a time
   * limit) fails with `TIMEOUT`, as a provider that throws does, so that the client tries again rather than wait.
   * @param {() => string | Promise<string>} provider
   * @returns {Promise<string>}
   */
  #askProvider(provider) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new EditlockError('TIMEOUT', 'The token provider did not answer')),
        this.options.requestTimeoutMs);
      new Promise((given) => { given(provider()); }).then(
        (token) => { clearTimeout(timer); resolve(/** @type {string} */ (token)); },
        (failure) => { clearTimeout(timer); reject(failure); },
      );
    });
  }

  /**
   * @param {string} token
   * @returns {SocketLike}
   */
  #openWebSocket(token) {
    return this.options.tokenIn === 'query'
      ? new WebSocket(`${this.#url()}?access_token=${encodeURIComponent(token)}`)
      : new WebSocket(this.#url(), ['editlock', `bearer.${token}`]);
  }

  /** @returns {string} */
  #url() {
    if (this.options.url) {
      return this.options.url;
    }
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}/locking`;
  }

  /** @param {Welcome} welcome */
  async #welcomed(welcome) {
    const link = this.#link;
    if (!link) {
      return;
    }
    const reconnected = !link.first;
    const previousToken = this.#resumeToken;
    link.welcomed = true;
    this.welcome = welcome;
    if (reconnected) {
      await this.#recover(previousToken, welcome.resumeToken, link, () => this.#opened(link, welcome, reconnected));
    } else {
      this.#resumeToken = welcome.resumeToken;
      await this.#resumeAfterReload(welcome, link);
    }
    if (this.#link !== link) {
      if (link.first) {
        link.first.resolve(welcome); // requests wait for the next socket
        link.first = null;
      }
      return; // dropped again while recovering
    }
    this.#opened(link, welcome, reconnected);
  }

  /**
   * The socket takes the app's requests from now on: what this client holds is known again.
   * @param {Link} link
   * @param {Welcome} welcome
   * @param {boolean} reconnected
   */
  #opened(link, welcome, reconnected) {
    if (this.#link !== link || this.#ready) {
      return;
    }
    this.#attempt = 0;
    this.#quickAttempts = 0;
    this.#quickMade = 0;
    this.#ready = true;
    this.#scheduleReauth(link, link.tokenExpiresAt);
    this.#setState('open');
    const queued = this.#queue.splice(0);
    queued.forEach((send) => send());
    if (link.first) {
      link.first.resolve(welcome);
      link.first = null;
    }
    this.#emit('connected', { welcome, reconnected });
  }

  /**
   * After a reconnect: take the locks, places in line and take-over requests back with `resume`
   * (retrying `RESUME_FAILED` while the server may still think the old socket lives, and `UNAVAILABLE`
   * while the lock store does not answer), re-take by re-entry what resume did not give back, re-watch,
   * and ask again for every line. The app's requests go out (`settled`) as soon as the locks are known:
   * resumed, or re-taken after the first refusal; the lines are asked for again then too. The retries
   * that may still bring back take-over requests go on meanwhile, so that after a drop longer than the
   * grace period neither the app nor a place in line waits for them.
   * @param {string | null} previousToken the token of the socket that kept what this client holds
   * @param {string} resumeToken the new socket's
   * @param {Link} link
   * @param {() => void} settled lets the app's requests out
   */
  async #recover(previousToken, resumeToken, link, settled) {
    // Only what this socket kept: the grants of the user's other tabs stay theirs to keep (docs/protocol.md §13, §14).
    const expected = new Map([...this.locks].filter(([key]) => this.#kept.has(key)));
    // A socket that only waits or asks holds no lock, but the server keeps its places for a resume too (§5, §14).
    const resuming = previousToken && this.#keepsSomething();
    const tokens = resuming ? [...this.#interruptedTokens, previousToken] : [];
    /** @type {Promise<void> | null} */
    let watching = null;
    const rewatch = () => {
      watching ??= this.#rewatch();
      return watching;
    };
    if (!resuming) {
      this.#resumeToken = resumeToken;
      this.#interruptedTokens = [];
      await rewatch();
      return;
    }
    // Asked for again while the resume still tries: the old socket's grace period runs meanwhile, and a
    // re-entry keeps the same grant as long as any socket of the user keeps it (docs/protocol.md §2).
    /** @type {Promise<void> | null} */
    let retaking = null;
    const retake = () => {
      retaking ??= this.#retake(this.#toRetake(expected), link);
      return retaking;
    };
    // A `wait-for` keeps a place the user still has (docs/protocol.md §14), so the lines need not wait
    // for the retries either: a place lost with a long drop is taken again at once, not after them.
    /** @type {Promise<void> | null} */
    let rejoining = null;
    const rejoin = () => {
      rejoining ??= this.#rejoin(this.#ownLines().filter((key) => !this.#leaving.has(key)), link);
      return rejoining;
    };
    const settleByRetaking = async () => {
      await retake();
      if (this.#link !== link) {
        return;
      }
      // Every lock is known now; a take-over request for one of them can be shown.
      this.#releaseHeldBackRequests();
      await rewatch();
      settled();
      await rejoin();
    };
    link.recovering = resumeToken; // should it drop meanwhile, it may keep it all by then
    this.#heldBackRequests = [];
    const resumed = await this.#resume(tokens, link, this.options.resumeRetryDelaysMs, () => { settleByRetaking(); });
    if (this.#link !== link) {
      return;
    }
    // From here on what this client keeps is the new socket's: resumed onto it, or asked for again on it.
    this.#resumeToken = resumeToken;
    this.#interruptedTokens = [];
    link.recovering = undefined;
    if (resumed) {
      this.#resumed(resumed, expected);
      this.#watchResumedTakeovers();
    } else {
      this.#dropTakeovers();
      this.#forgetMaybeJoined();
    }
    this.#releaseHeldBackRequests();
    await retake();
    await rewatch();
    settled();
    await rejoin();
  }

  /** Watches again, on the new socket, the configurators the app watched; each reply says what is locked now. */
  async #rewatch() {
    const watches = [...this.watched].map((configuratorId) => this.#request('watch', { configuratorId }, ['lock-updated'], { immediate: true })
      .then((reply) => {
        this.#forgetEndedElsewhere(reply.data);
        this.#emit('lock-updated', reply.data);
      })
      .catch((failure) => {
        if (failure.code === 'NOT_FOUND') this.watched.delete(configuratorId);
      }));
    await Promise.all(watches);
  }

  /**
   * Grants of the user's other tabs in a configurator watched again after a drop, that the watch's reply no longer
   * lists: they ended while no socket of this client was open, so their `lock-lost` went to the old socket. They
   * are reported lost now, before the reply, as a node does for what ended while it could not hear the store
   * (reason `expired`: why is unknown here, docs/protocol.md §4). A grant of a configurator this client does not
   * watch is kept until it hears of it.
   * @param {{configuratorId: number, locks: Lock[]}} state
   */
  #forgetEndedElsewhere(state) {
    const userId = this.welcome?.userId;
    const standing = new Set(state.locks.filter((lock) => lock.ownerUserId === userId).map((lock) => resourceKey(lock.resource)));
    for (const [key, lock] of [...this.locks]) {
      if (!this.#kept.has(key) && lock.resource.configuratorId === state.configuratorId && !standing.has(key)) {
        this.#forget(lock.resource);
        this.#emit('lock-lost', { resource: lock.resource, reason: 'expired' });
      }
    }
  }

  /**
   * The locks a resume brought back. One we did not hold was granted while the old socket was gone, by
   * its line or a take-over: that news went to the old socket only, so it is told now.
   * @param {Lock[]} resumed
   * @param {Map<string, Lock>} expected the locks held before the drop; those resumed are taken out
   */
  #resumed(resumed, expected) {
    // Also a line or a take-over whose request's reply was lost: the server carried it out, and it was granted.
    const lines = new Set([...this.waiting.keys(), ...this.#maybeJoined]);
    const takeovers = [...this.takeovers.values()];
    const asked = new Set([...this.takeovers.keys(), ...this.#maybeAsked.keys()]);
    /** @type {Array<[string, object]>} */
    const news = [];
    for (const lock of resumed) {
      const key = resourceKey(lock.resource);
      expected.delete(key);
      if (lines.has(key) && this.#servedAfterLeaving(lock)) {
        continue;
      }
      this.#hold(lock, true);
      if (asked.has(key)) {
        news.push(['takeover-granted', { lock }]);
      } else if (lines.has(key)) {
        news.push(['lock-acquired', { lock, released: [], queued: true }]);
      }
    }
    // As after a reload: the grants are told once the app knows what the resume brought back.
    this.#emit('resumed', { locks: resumed, reload: false, takeovers });
    news.forEach(([type, detail]) => this.#emit(type, detail));
  }

  /** Tells the `takeover-requested` events held back during a resume, now that its locks are known. */
  #releaseHeldBackRequests() {
    const held = this.#heldBackRequests || [];
    this.#heldBackRequests = null;
    held.filter((data) => this.locks.has(resourceKey(/** @type {any} */ (data).resource)))
      .forEach((data) => {
        this.#noteAsker(data);
        this.#emit('takeover-requested', data);
      });
  }

  /**
   * A `takeover-requested` is about to be told: its asker is the one `answerTakeover` names from now on.
   * @param {any} data
   */
  #noteAsker(data) {
    if (data && data.resource && typeof data.byUserId === 'string') {
      this.#askedBy.set(resourceKey(data.resource), data.byUserId);
    }
  }

  /**
   * The locks held before a drop that are to be asked for again: not those the app released meanwhile
   * (their unlock goes out on the new socket once it is ready), nor those a resume brought back.
   * @param {Map<string, Lock>} expected
   * @returns {Lock[]}
   */
  #toRetake(expected) {
    return [...expected.values()].filter((lock) => !this.#releasing.has(resourceKey(lock.resource)));
  }

  /**
   * Asks again for each line (`wait-for`): the server keeps the place it still has and answers with the
   * current position (missed while the socket was gone), takes a lost place again at the end of the line,
   * or grants a page that is free by now. A line that cannot be rejoined is left, with `not-waiting`.
   * @param {string[]} keys the canonical strings of the lines
   * @param {Link} link
   */
  async #rejoin(keys, link) {
    await Promise.all(keys.map(async (key) => {
      this.#joined.add(key); // asked for on this socket: a grant that crosses the reply is kept here
      try {
        const reply = await this.#request('wait-for', { resource: resourceOfKey(key) }, ['queued', 'lock-acquired'], { immediate: true });
        if (reply.event === 'lock-acquired') {
          this.#replaced(reply.data.released);
          this.#hold(reply.data.lock, true);
          this.#emit('lock-acquired', { lock: reply.data.lock, released: [], queued: true });
        } else {
          this.waiting.set(key, reply.data.position);
          this.#emit('queue-updated', reply.data);
        }
      } catch (failure) {
        if (this.#link === link) {
          this.#leaveLine(key, failure);
        }
      }
    }));
  }

  /**
   * @param {string} key a line this client no longer waits in, though the app may still show it
   * @param {unknown} [refusal] why it could not be rejoined
   */
  #leaveLine(key, refusal) {
    this.#joined.delete(key);
    this.#maybeJoined.delete(key);
    if (this.waiting.delete(key)) {
      this.#emit('not-waiting', { resource: resourceOfKey(key), reason: 'disconnect', refusal });
    }
  }

  /**
   * Take-over requests whose socket could not be resumed: they ended with it, unless another socket of
   * the user keeps them (then their outcome still arrives). Asking again unasked would pester the holder
   * with a new dialog, so the app is told to let the user ask again (docs/protocol.md §13).
   */
  #dropTakeovers() {
    const dropped = [...this.takeovers.values()];
    this.takeovers.clear();
    this.#maybeAsked.clear(); // their app was told already: its request was rejected (DISCONNECTED, TIMEOUT)
    dropped.forEach(({ resource }) => this.#emit('lock-failed', {
      resource, code: 'DISCONNECTED', message: 'The connection was lost before an answer came. Ask again if you still need the page.',
    }));
  }

  /**
   * Lines whose `wait-for` reply was lost, after a resume that failed: a place made on the old socket ends with it
   * (docs/protocol.md §14). Their app was told already: its `waitFor` was rejected (`DISCONNECTED`, `TIMEOUT`).
   */
  #forgetMaybeJoined() {
    for (const key of this.#maybeJoined) {
      if (!this.waiting.has(key)) {
        this.#joined.delete(key);
      }
    }
    this.#maybeJoined.clear();
  }

  /**
   * Take-over requests that outlived a drop on the resumed socket. An outcome that came while no socket of
   * the user was open went nowhere (docs/protocol.md §13), so one still unheard a little after its deadline
   * was lost: it is dropped as above, and the user may ask again.
   */
  #watchResumedTakeovers() {
    for (const [key, takeover] of this.takeovers) {
      const dueMs = Math.max(0, Date.parse(takeover.deadline) - Date.now()) + this.options.takeoverAnswerGraceMs;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        if (this.takeovers.get(key) !== takeover) {
          return; // answered meanwhile, or asked again
        }
        this.takeovers.delete(key);
        this.#emit('lock-failed', {
          resource: takeover.resource, code: 'DISCONNECTED', message: 'The connection was lost before an answer came. Ask again if you still need the page.',
        });
      }, Math.min(dueMs, MAX_TIMER_MS));
      this.#timers.add(timer);
    }
  }

  /**
   * The page before this one in the tab held locks: take them back before the app asks for any.
   * @param {Welcome} welcome
   * @param {Link} link
   */
  async #resumeAfterReload(welcome, link) {
    const remembered = this.#takeRemembered(welcome.userId);
    if (!remembered) {
      return;
    }
    this.#heldBackRequests = [];
    const resumed = await this.#resume(remembered.resumeTokens, link, this.options.reloadResumeRetryDelaysMs);
    if (this.#link !== link) {
      return;
    }
    if (resumed) {
      // The resumed socket keeps the take-over requests of the page before, so their outcome comes here
      // (docs/protocol.md §13); one granted while no page listened comes with the resumed locks.
      const { takeovers } = remembered;
      takeovers.forEach((takeover) => this.takeovers.set(resourceKey(takeover.resource), takeover));
      const granted = resumed.filter((lock) => this.takeovers.has(resourceKey(lock.resource)));
      resumed.forEach((lock) => this.#hold(lock, true));
      this.#emit('resumed', { locks: resumed, reload: true, takeovers });
      granted.forEach((lock) => this.#emit('takeover-granted', { lock }));
      this.#watchResumedTakeovers();
    }
    this.#releaseHeldBackRequests();
    // The page before waited in these lines; this page learns its places (or takes them again).
    await this.#rejoin(remembered.waiting.filter((key) => !this.locks.has(key)), link);
  }

  /**
   * @param {string} userId
   * @returns {{resumeTokens: string[], waiting: string[], takeovers: Takeover[]} | null} what the page before
   *   kept for this user (its resume tokens, newest first, the lines it waited in, its take-over requests),
   *   taken out of storage
   */
  #takeRemembered(userId) {
    const storage = this.options.resumeStorage;
    if (!storage) {
      return null;
    }
    try {
      const saved = JSON.parse(storage.getItem(this.options.resumeStorageKey) || 'null');
      storage.removeItem(this.options.resumeStorageKey);
      const fresh = saved && saved.userId === userId && Date.now() - saved.at < RELOAD_RESUME_MAX_AGE_MS;
      if (!fresh || typeof saved.resumeToken !== 'string') {
        return null;
      }
      const tokens = Array.isArray(saved.resumeTokens)
        ? saved.resumeTokens.filter((/** @type {unknown} */ token) => typeof token === 'string')
        : [];
      const resumeTokens = tokens.length > 0 ? tokens : [saved.resumeToken];
      const waiting = Array.isArray(saved.waiting) ? saved.waiting.filter((/** @type {unknown} */ key) => typeof key === 'string') : [];
      const takeovers = Array.isArray(saved.takeovers) ? saved.takeovers.filter((/** @type {any} */ takeover) => takeover
        && typeof takeover.deadline === 'string' && takeover.resource && typeof takeover.resource.type === 'string') : [];
      return { resumeTokens, waiting, takeovers };
    } catch {
      return null;
    }
  }

  #forgetRemembered() {
    try {
      this.options.resumeStorage?.removeItem(this.options.resumeStorageKey);
    } catch {
      // nothing to forget
    }
  }

  /**
   * Presents each token in turn, newest first, until one is resumed; again after each wait while they
   * are refused with `RESUME_FAILED` or `UNAVAILABLE`.
   * @param {string[]} tokens
   * @param {Link} link
   * @param {number[]} [retryDelaysMs]
   * @param {() => void} [refusedOnce] called when every token was refused once, with `RESUME_FAILED`
   * @returns {Promise<Lock[] | null>} the resumed locks, or null when resume was refused for good
   */
  async #resume(tokens, link, retryDelaysMs = this.options.resumeRetryDelaysMs, refusedOnce = () => {}) {
    const delays = [...retryDelaysMs];
    let retrying = tokens;
    for (;;) {
      const refused = [];
      let storeAnswered = true;
      for (const resumeToken of retrying) {
        try {
          const reply = await this.#request('resume', { resumeToken }, ['resumed'], { immediate: true });
          return reply.data.locks || [];
        } catch (failure) {
          if (this.#link !== link) {
            return null;
          }
          if (failure instanceof EditlockError && (failure.code === 'RESUME_FAILED' || failure.code === 'UNAVAILABLE')) {
            refused.push(resumeToken);
            storeAnswered &&= failure.code === 'RESUME_FAILED';
          }
        }
      }
      // Not while the store does not answer: asking for the locks then would only be refused too.
      if (retrying === tokens && storeAnswered) {
        refusedOnce();
      }
      retrying = refused;
      const delay = delays.shift();
      if (retrying.length === 0 || delay === undefined) {
        return null;
      }
      // A timer of the client's, so that close() ends the wait (and with it this resume).
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          resolve(undefined);
        }, delay);
        this.#timers.add(timer);
      });
      if (this.#link !== link) {
        return null;
      }
    }
  }

  /**
   * Locks that resume did not bring back: ask again (a re-entry keeps the same grant); lost if refused.
   * @param {Lock[]} locks
   * @param {Link} link
   */
  async #retake(locks, link) {
    await Promise.all(locks.map(async (lock) => {
      const { resource } = lock;
      const { lock: event, data } = requestsFor(resource);
      try {
        const reply = await this.#request(event, data, ['lock-acquired'], { immediate: true });
        this.#retaken(lock, reply.data.lock);
      } catch (failure) {
        if (this.#link !== link) {
          return;
        }
        this.#forget(resource);
        this.#emit('lock-lost', { resource, reason: 'disconnect', refusal: failure });
      }
    }));
  }

  /**
   * The grant a re-entry gave back. The same token is the same grant, kept while the socket was gone:
   * nothing to tell. Another token means the old grant ended meanwhile (someone else may have held the
   * page and saved): writes prepared under it must not go out with the new token, which would pass the
   * 412 check that docs/protocol.md §7 exists for. So the old grant is reported lost and the new one
   * as an acquisition of its own.
   * @param {Lock} before
   * @param {Lock} after
   */
  #retaken(before, after) {
    if (after.token === before.token) {
      this.#hold(after, true);
      return;
    }
    this.#forget(before.resource);
    this.#emit('lock-lost', { resource: before.resource, reason: 'disconnect' });
    this.#hold(after, true);
    this.#emit('lock-acquired', { lock: after, released: [], retaken: true });
  }

  /**
   * @param {Link} link
   * @param {number} code
   * @param {string} reason
   */
  #closed(link, code, reason) {
    if (link.recovering) {
      // Dropped while it resumed: what this client holds may be under its token now, or still under the old.
      this.#interruptedTokens = [link.recovering, ...this.#interruptedTokens].slice(0, 2);
    }
    detach(link.socket);
    this.#link = null;
    this.#ready = false;
    clearTimeout(this.#reauthTimer);
    this.#failPending('DISCONNECTED', 'The connection was lost');
    // Told by the link, not by `welcome`: that is still the last socket's after the client stopped for good.
    if (link.first && !link.welcomed) {
      this.#openFailed(link.first, new EditlockError('DISCONNECTED', `Could not connect (${code})`));
      return;
    }
    const willReconnect = !this.#closedByUser && this.#reconnectCanHelp(code);
    if (code === GOING_AWAY_CODE && this.welcome) {
      this.#quickAttempts = QUICK_ATTEMPTS_AFTER_GOING_AWAY;
    }
    this.#emit('disconnected', { code, reason, willReconnect });
    if (willReconnect) {
      this.#scheduleReconnect();
    } else {
      // Stopped for good: requests fail at once, and connect() opens a new socket.
      this.#connectPromise = null;
      this.#listen(false);
      this.#setState('closed');
      this.#failAll('CLOSED', `The connection ended (${code}) and is not tried again`);
      this.#abandon();
      if (link.first) {
        // Welcomed, but ended while it resumed what the page before kept: that connect() does not open.
        const { first } = link;
        link.first = null;
        if (this.#first === first) {
          this.#first = null;
        }
        first.reject(new EditlockError('DISCONNECTED', `Could not connect (${code})`));
      }
    }
  }

  /**
   * Every close the server initiates is a drop whose locks wait for a resume (docs/protocol.md §5), 1008
   * included: "too slow" is over once the client reads again, and "too many sockets" (an upgrade that
   * raced past the socket quota, §4) once another socket of the user closes — which the back-off waits for.
   * @param {number} code
   * @returns {boolean} whether a new socket can do better than the one that closed
   */
  #reconnectCanHelp(code) {
    if (code === REFUSED_CODE) {
      return false;
    }
    // A token that ended cannot open a new socket: only a token provider can give a fresh one.
    return code !== TOKEN_EXPIRED_CODE || typeof this.options.token === 'function';
  }

  /**
   * The client stops without a resume to come: every lock, line and take-over request the app believes
   * in is reported gone, so that no page goes on claiming a lock (the server releases them by itself).
   */
  #abandon() {
    const lost = [...this.locks.values()];
    this.locks.clear();
    this.#kept.clear();
    this.#askedBy.clear();
    lost.forEach((lock) => this.#emit('lock-lost', { resource: lock.resource, reason: 'disconnect' }));
    [...this.waiting.keys()].forEach((key) => this.#leaveLine(key));
    this.#forgetMaybeJoined();
    this.#dropTakeovers();
  }

  /**
   * @param {Link['first']} first
   * @param {Error} failure
   */
  #openFailed(first, failure) {
    if (first) {
      this.#connectPromise = null;
      this.#listen(false);
      this.#setState('closed');
      this.#failAll('CLOSED', 'Could not connect');
      first.reject(failure);
      return;
    }
    this.#scheduleReconnect();
  }

  /**
   * Gives up on the current socket as a drop (not a clean close): the server keeps its locks for a resume.
   * @param {string} why
   */
  #drop(why) {
    const link = this.#link;
    if (!link || this.#closedByUser) {
      return;
    }
    this.#closed(link, DROP_CODE, why);
    try {
      link.socket.close(DROP_CODE, why);
    } catch {
      // already closing
    }
  }

  #scheduleReconnect() {
    clearTimeout(this.#reconnectTimer);
    this.#attempt += 1;
    let ceiling = this.options.backoffBaseMs;
    if (this.#quickAttempts > 0) {
      this.#quickAttempts -= 1;
      this.#quickMade += 1; // the back-off starts after them
    } else {
      ceiling = Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** (this.#attempt - 1 - this.#quickMade));
    }
    const delayMs = Math.round(ceiling / 2 + Math.random() * ceiling / 2); // jitter: 50–100 % of the ceiling
    this.#setState('reconnecting');
    this.#emit('reconnecting', { attempt: this.#attempt, delayMs });
    this.#reconnectTimer = setTimeout(() => this.#open(null), delayMs);
  }

  /** The browser says the network is back: try at once instead of waiting out the backoff. */
  #reconnectNow() {
    if (this.state !== 'reconnecting' || this.#link || this.#opening || this.#closedByUser) {
      return;
    }
    clearTimeout(this.#reconnectTimer);
    this.#open(null);
  }

  /** @param {PageTransitionEvent} event */
  #pageHidden(event) {
    if (!event.persisted) {
      // The page unloads: perhaps a reload. The browser closes the socket with 1001, for which the
      // server keeps the locks a few seconds; the next page of this tab resumes them.
      this.rememberForReload();
      return;
    }
    if (!this.#link) {
      return;
    }
    // Parked in the back/forward cache: close cleanly so that the server frees our locks at once.
    const { socket } = this.#link;
    this.#link = null;
    this.#ready = false;
    clearTimeout(this.#reauthTimer);
    detach(socket);
    socket.close(1000, 'page hidden');
    this.#failPending('DISCONNECTED', 'The page was left');
    this.#pausedByPageHide = event.persisted;
  }

  #reopenAfterPageShow() {
    if (!this.#pausedByPageHide || this.#closedByUser) {
      return;
    }
    this.#pausedByPageHide = false;
    this.#abandon(); // closed with 1000 when the page was hidden: the server freed all of it
    this.#resumeToken = null;
    this.#interruptedTokens = [];
    this.#open(null);
  }

  /**
   * @param {string} code
   * @param {string} message
   */
  #failPending(code, message) {
    for (const [ref, pending] of this.#pending) {
      if (!pending.queued) {
        clearTimeout(pending.timer);
        this.#pending.delete(ref);
        pending.reject(new EditlockError(code, message));
      }
    }
  }

  /**
   * @param {string} code
   * @param {string} message
   */
  #failAll(code, message) {
    this.#queue = [];
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new EditlockError(code, message));
    }
    this.#pending.clear();
  }

  // ---- token renewal ------------------------------------------------------------------------

  /**
   * Plans the renewal of the socket's token, `reauthLeadMs` before it ends (only with a token provider).
   * @param {Link} link
   * @param {number} expiresAtMs
   */
  #scheduleReauth(link, expiresAtMs) {
    clearTimeout(this.#reauthTimer);
    this.#reauthTimer = undefined;
    const provider = this.options.token;
    if (typeof provider !== 'function' || !Number.isFinite(expiresAtMs)) {
      return;
    }
    const remaining = expiresAtMs - Date.now();
    const dueAt = expiresAtMs - Math.min(this.options.reauthLeadMs, Math.max(0, remaining) / 2);
    const wake = () => {
      if (this.#link !== link) {
        return;
      }
      if (Date.now() < dueAt) {
        this.#reauthTimer = setTimeout(wake, Math.min(dueAt - Date.now(), MAX_TIMER_MS));
        return;
      }
      this.#reauth(link, provider, expiresAtMs);
    };
    this.#reauthTimer = setTimeout(wake, Math.min(Math.max(0, dueAt - Date.now()), MAX_TIMER_MS));
  }

  /**
   * @param {Link} link
   * @param {() => string | Promise<string>} provider
   * @param {number} expiresAtMs
   */
  async #reauth(link, provider, expiresAtMs) {
    try {
      const accessToken = await this.#askProvider(provider);
      if (this.#link !== link || !this.#ready) {
        return;
      }
      const reply = await this.#request('reauth', { accessToken }, ['reauthed'], { immediate: true });
      if (this.#link !== link) {
        return;
      }
      this.#emit('reauthed', reply.data);
      this.#scheduleReauth(link, Date.parse(reply.data.expiresAt));
    } catch (error) {
      if (this.#link !== link) {
        return;
      }
      this.#emit('reauth-failed', { error });
      // Once the old token ends the server closes the socket (4401); the reconnect asks the provider again.
      if (Date.now() + this.options.reauthRetryMs < expiresAtMs) {
        this.#reauthTimer = setTimeout(() => {
          if (this.#link === link) this.#reauth(link, provider, expiresAtMs);
        }, this.options.reauthRetryMs);
      }
    }
  }

  // ---- activity -----------------------------------------------------------------------------

  /** @param {boolean} on */
  #listen(on) {
    const target = this.options.activityTarget;
    if (target) {
      ACTIVITY_EVENTS.forEach((name) => (on
        ? target.addEventListener(name, this.#onActivity, { passive: true, capture: true })
        : target.removeEventListener(name, this.#onActivity, { capture: true })));
    }
    if (typeof window === 'undefined') {
      return;
    }
    if (on) {
      if (this.options.closeOnPageHide) {
        window.addEventListener('pagehide', this.#onPageHide);
        window.addEventListener('pageshow', this.#onPageShow);
      }
      window.addEventListener('online', this.#onOnline);
      window.addEventListener('offline', this.#onOffline);
    } else {
      if (this.options.closeOnPageHide) {
        window.removeEventListener('pagehide', this.#onPageHide);
        window.removeEventListener('pageshow', this.#onPageShow);
      }
      window.removeEventListener('online', this.#onOnline);
      window.removeEventListener('offline', this.#onOffline);
    }
  }

  #maybeTouch() {
    if (!this.#ready || Date.now() - this.#lastTouch < this.options.touchIntervalMs) {
      return;
    }
    this.touch().catch(() => { /* a drop is handled by the reconnect */ });
  }

  // ---- events -------------------------------------------------------------------------------

  /** @param {ConnectionState} state */
  #setState(state) {
    if (state === this.state) {
      return;
    }
    const previous = this.state;
    this.state = state;
    this.#emit('statechange', { state, previous });
  }

  /**
   * @param {string} type
   * @param {any} detail
   */
  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

/**
 * Stops listening to a socket the client is done with.
 * @param {SocketLike} socket
 */
function detach(socket) {
  socket.onmessage = null;
  socket.onclose = null;
  socket.onerror = null;
}
