export type Page = 'filters' | 'dependencies' | 'attributes';
export type Resource = {
    type: 'configurator' | 'variables' | 'item-subresource';
    /**
     * missing only for an item that does not exist
     */
    configuratorId?: number;
    /**
     * item pages only
     */
    itemId?: number;
    /**
     * item pages only
     */
    page?: Page;
};
export type Lock = {
    resource: Resource;
    ownerUserId: string;
    ownerUserName: string;
    /**
     * ISO-8601
     */
    acquiredAt: string;
    /**
     * ISO-8601, the lease's end as of that message
     */
    expiresAt: string;
    token?: number;
};
export type Takeover = {
    /**
     * the lock asked for
     */
    resource: Resource;
    /**
     * ISO-8601, when its consent window ends
     */
    deadline: string;
};
export type Welcome = {
    socketId: string;
    userId: string;
    userName: string;
    resumeToken: string;
};
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';
export type EditlockClientOptions = {
    /**
     * the JWT, or a token provider: a function that
     * returns a valid one (called for every connection, and before the socket's token ends, to renew it
     * on the open socket with `reauth`). With a plain string the socket ends with its token (close 4401).
     */
    token: string | (() => string | Promise<string>);
    /**
     * the socket URL; default: `/locking` on the page's own host (ws: or wss:)
     */
    url?: string;
    /**
     * how the token travels at the upgrade: as the subprotocol
     * `bearer.<jwt>` next to `editlock` (kept out of proxies' access logs), or as `?access_token=`
     */
    tokenIn?: 'protocol' | 'query';
    /**
     * renew the token this long before it ends (at most half its remaining life)
     */
    reauthLeadMs?: number;
    /**
     * wait before trying again when a renewal failed
     */
    reauthRetryMs?: number;
    /**
     * a request sent without a reply by then is rejected (code `TIMEOUT`)
     * and the socket is treated as dead (dropped and reconnected). A request made while no socket is ready waits
     * for one without a time limit (its time starts when it is sent); it is rejected (`CLOSED`) when the client
     * stops for good, its first connection fails, or `close()` is called. A token provider that has not answered by
     * then fails the attempt (`TIMEOUT`): the first `connect()` rejects, a reconnect is tried again after the
     * back-off, a renewal is `reauth-failed`
     */
    requestTimeoutMs?: number;
    /**
     * at most one `touch` per this interval, on user activity
     */
    touchIntervalMs?: number;
    /**
     * first reconnect delay; doubles per attempt, with jitter
     */
    backoffBaseMs?: number;
    /**
     * longest reconnect delay
     */
    backoffMaxMs?: number;
    /**
     * waits before each retry of a
     * `resume` refused with `RESUME_FAILED` (the server may not have noticed the drop yet) or `UNAVAILABLE`
     * (the lock store did not answer in time: the token is still good); the locks are asked for again
     * (a re-entry keeps the grant), and the lines too (a `wait-for` keeps a place still held), right after
     * the first refusal, while these retries go on for the take-over requests
     */
    resumeRetryDelaysMs?: number[];
    /**
     * waits before each new try of an
     * unlock or a `stop-waiting` answered `UNAVAILABLE` or lost with its socket; the last one repeats until
     * the server answers
     */
    unlockRetryDelaysMs?: number[];
    /**
     * a take-over request that outlived a drop and is still unanswered
     * this long after its deadline is reported lost (`lock-failed` `DISCONNECTED`): its outcome came while
     * no socket was open
     */
    takeoverAnswerGraceMs?: number;
    /**
     * the server's consent window (`editlock.waiting.consent-window`): a
     * take-over request whose reply was lost ends by then, and `takeoverAnswerGraceMs` later this client stops
     * keeping it for a resume
     */
    consentWindowMs?: number;
    /**
     * where pointer and keyboard activity is listened to;
     * `null` disables automatic touches
     */
    activityTarget?: EventTarget | null;
    /**
     * on `pagehide`: when the page goes into the back/forward cache,
     * close cleanly (1000) so that its locks are freed at once; when it unloads (a reload, a link, a closed tab),
     * leave the socket to the browser, which closes it with 1001, and keep the resume token for the next page
     */
    closeOnPageHide?: boolean;
    /**
     * where the resume token outlives a reload of the tab;
     * `null` starts every page without the locks of the one before
     */
    resumeStorage?: Storage | null;
    /**
     * its key there
     */
    resumeStorageKey?: string;
    /**
     * waits before each retry of the `resume` a
     * reloaded page sends (the server may not have seen the old page's close yet); short, as the server keeps a
     * reloaded page's locks only for its reload grace (3 s by default)
     */
    reloadResumeRetryDelaysMs?: number[];
    /**
     * opens the socket instead of a
     * WebSocket to `url` (with the token as `tokenIn` says). Anything with the WebSocket's
     * send/close/readyState/onmessage/onclose will do (socketio-socket.js: the same frames over Socket.IO)
     */
    openSocket?: ((url: string, token: string) => SocketLike) | null;
};
export type SocketLike = {
    send: (text: string) => void;
    close: (code?: number, reason?: string) => void;
    /**
     * 1 when open
     */
    readyState: number;
    onmessage: ((message: MessageEvent) => void) | null;
    onclose: ((close: CloseEvent) => void) | null;
    onerror: ((error: Event) => void) | null;
};
export type Frame = {
    event: string;
    data?: any;
    /**
     * the request's reference, echoed by its direct reply
     */
    ref?: string;
};
export type RefusalData = {
    code?: string;
    message?: string;
    resource?: Resource;
    lockedBy?: string;
    lockedByUserId?: string;
    blocking?: Lock;
};
export type LockEndReason = 'unlock' | 'disconnect' | 'replaced' | 'expired' | 'idle' | 'admin' | 'deleted' | 'taken-over';
export type LockFailedCode = 'LOCKED' | 'NOT_FOUND' | 'NOT_HELD' | 'BUSY' | 'RATE_LIMITED' | 'UNAVAILABLE' | 'DISCONNECTED';
export type LockUpdatedDetail = {
    configuratorId: number;
    locks: Lock[];
    /**
     * the number of waiters per resource (canonical string) with a line
     */
    waiting?: Record<string, number>;
};
export type LockReleasedDetail = {
    resource: Resource;
    reason: LockEndReason;
    /**
     * the former holder
     */
    ownerUserId: string;
    ownerUserName: string;
};
export type LockLostDetail = {
    resource: Resource;
    reason: LockEndReason;
    /**
     * after a drop: why asking for it again failed
     */
    refusal?: EditlockError;
};
export type ContentChangedDetail = {
    configuratorId: number;
    entity: 'configurator' | 'item' | 'filter' | 'dependency' | 'attribute-value' | 'variable';
    /**
     * the written entity's id (of the root, for a delete that cascades)
     */
    id: number;
    op: 'created' | 'updated' | 'deleted';
};
export type LockAcquiredDetail = {
    /**
     * with its `token`
     */
    lock: Lock;
    /**
     * what the one-configurator rule took away (docs/protocol.md §2)
     */
    released: Resource[];
    queued?: true;
    retaken?: true;
};
export type LockFailedDetail = {
    resource: Resource;
    code: LockFailedCode;
    message: string;
    /**
     * with `LOCKED`: the name of the user whose lock is in the way
     */
    lockedBy?: string;
    lockedByUserId?: string;
    /**
     * with `LOCKED`: the lock in the way
     */
    blocking?: Lock;
};
export type TakeoverGrantedDetail = {
    /**
     * with its `token`
     */
    lock: Lock;
};
export type TakeoverRefusedDetail = {
    resource: Resource;
    /**
     * the holder who refused
     */
    byUserName: string;
};
export type TakeoverRequestedDetail = {
    resource: Resource;
    byUserId: string;
    byUserName: string;
    /**
     * `""` when they gave none
     */
    message: string;
    /**
     * ISO-8601, when the consent window ends
     */
    deadline: string;
};
export type QueueUpdatedDetail = {
    resource: Resource;
    /**
     * 1 = next
     */
    position: number;
};
export type NotWaitingDetail = {
    resource: Resource;
    reason: 'stopped' | 'disconnect' | 'idle' | 'expired' | 'ended';
    /**
     * after a drop: why the line could not be joined again
     */
    refusal?: EditlockError;
};
export type StateChangeDetail = {
    state: ConnectionState;
    previous: ConnectionState;
};
export type ConnectedDetail = {
    welcome: Welcome;
    reconnected: boolean;
};
export type DisconnectedDetail = {
    /**
     * the close code
     */
    code: number;
    reason: string;
    willReconnect: boolean;
};
export type ReconnectingDetail = {
    attempt: number;
    delayMs: number;
};
export type ResumedDetail = {
    /**
     * with their tokens
     */
    locks: Lock[];
    reload: boolean;
    /**
     * the take-over requests the resumed socket kept
     */
    takeovers: Takeover[];
};
export type ReauthedDetail = {
    /**
     * ISO-8601
     */
    expiresAt: string;
};
export type ReauthFailedDetail = {
    /**
     * what the token provider threw, or the `EditlockError` of the refused `reauth`
     */
    error: unknown;
};
export type EditlockClientEventMap = {
    "lock-updated": CustomEvent<LockUpdatedDetail>;
    "lock-released": CustomEvent<LockReleasedDetail>;
    "lock-lost": CustomEvent<LockLostDetail>;
    "content-changed": CustomEvent<ContentChangedDetail>;
    "lock-acquired": CustomEvent<LockAcquiredDetail>;
    "lock-failed": CustomEvent<LockFailedDetail>;
    "takeover-granted": CustomEvent<TakeoverGrantedDetail>;
    "takeover-refused": CustomEvent<TakeoverRefusedDetail>;
    "takeover-requested": CustomEvent<TakeoverRequestedDetail>;
    "queue-updated": CustomEvent<QueueUpdatedDetail>;
    "not-waiting": CustomEvent<NotWaitingDetail>;
    statechange: CustomEvent<StateChangeDetail>;
    connected: CustomEvent<ConnectedDetail>;
    disconnected: CustomEvent<DisconnectedDetail>;
    reconnecting: CustomEvent<ReconnectingDetail>;
    resumed: CustomEvent<ResumedDetail>;
    reauthed: CustomEvent<ReauthedDetail>;
    "reauth-failed": CustomEvent<ReauthFailedDetail>;
};
export type EditlockEventTarget = {
    addEventListener<K extends keyof EditlockClientEventMap>(type: K, listener: (this: EditlockClient, event: EditlockClientEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
    addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
    removeEventListener<K extends keyof EditlockClientEventMap>(type: K, listener: (this: EditlockClient, event: EditlockClientEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
    removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions): void;
} & EventTarget;
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
export declare const PAGES: readonly string[];
/**
 * Close code of the server for a socket whose token ended (docs/protocol.md §3): only a fresh token, from a
 * token provider, can open the next socket. An `openSocket` wire reports a token refused at connection so too.
 */
export declare const TOKEN_EXPIRED_CODE = 4401;
/**
 * Close code an `openSocket` wire reports for a connection refused for a reason no new attempt changes (a
 * foreign Origin, docs/protocol.md §3). The server never closes an open socket for good: every close it
 * initiates is a drop (§5).
 */
export declare const REFUSED_CODE = 4403;
/**
 * A request refused by the server (`lock-failed`, `unlock-failed`, `error`), or one that got no
 * reply (`TIMEOUT`, `DISCONNECTED`, `CLOSED`).
 */
export declare class EditlockError extends Error {
    /** @type {string} */
    code: string;
    /** @type {Resource | undefined} what was requested */
    resource: Resource | undefined;
    /** @type {string | undefined} the name of the user whose lock refused it (`LOCKED`) */
    lockedBy: string | undefined;
    /** @type {string | undefined} */
    lockedByUserId: string | undefined;
    /** @type {Lock | undefined} the other user's lock that refused it (`LOCKED`) */
    blocking: Lock | undefined;
    /**
     * @param {string} code `LOCKED`, `NOT_FOUND`, `RATE_LIMITED`, `UNAVAILABLE`, `NOT_HELD`,
     *   `BAD_REQUEST`, `RESUME_FAILED`, `TIMEOUT`, `DISCONNECTED`, `CLOSED`
     * @param {string} message
     * @param {RefusalData} [data] the reply's data
     */
    constructor(code: string, message: string, data?: RefusalData);
}
/**
 * When a JWT ends (its `exp`, in ms), read without verifying (the server verifies); NaN if unreadable.
 * @param {string} token
 * @returns {number}
 */
export declare function tokenExpiry(token: string): number;
/**
 * The canonical string of a resource: `configurator:12`, `configurator:12:variables`, `item:5:filters`.
 * @param {Resource} resource
 * @returns {string}
 */
export declare function resourceKey(resource: Resource): string;
/**
 * Whether `held`, held by another user, refuses a request for `wanted` (the conflict table,
 * docs/protocol.md §2). `wanted` must carry its `configuratorId`. The only copy of the table in the
 * client: {@link blockingLock} and the demo ask it.
 * @param {Resource} wanted
 * @param {Resource} held
 * @returns {boolean}
 */
export declare function conflicts(wanted: Resource, held: Resource): boolean;
/**
 * The lock among `locks` that refuses `userId` a request for `wanted`: another user's lock that
 * {@link conflicts} with it (a user's own locks never refuse them).
 * @param {Resource} wanted
 * @param {Lock[]} locks
 * @param {string} userId
 * @returns {Lock | undefined}
 */
export declare function blockingLock(wanted: Resource, locks: Lock[], userId: string): Lock | undefined;
type Link = {
    socket: SocketLike;
    /**
     *   the `connect()` waiting for this socket, on the first one
     */
    first: {
        resolve: (welcome: Welcome) => void;
        reject: (error: Error) => void;
    } | null;
    /**
     * its `welcome` came: a close after that is a drop, even on the first socket
     */
    welcomed?: boolean;
    /**
     * when the token it was opened with ends (ms), NaN if unknown
     */
    tokenExpiresAt: number;
    /**
     * its own resume token, while it resumes what the socket before it kept
     */
    recovering?: string;
};
type Pending = {
    resolve: (frame: Frame) => void;
    reject: (error: Error) => void;
    /**
     * its time limit, from when it is sent
     */
    timer: ReturnType<typeof setTimeout> | undefined;
    /**
     * the reply events that mean success
     */
    expect: string[];
    /**
     * not sent yet (waiting for a ready socket)
     */
    queued: boolean;
};
declare const EditlockClient_base: new () => EditlockEventTarget;
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
export declare class EditlockClient extends EditlockClient_base {
    #private;
    options: {
        token: string | (() => string | Promise<string>);
        url?: string;
        requestTimeoutMs: number;
        touchIntervalMs: number;
        backoffBaseMs: number;
        backoffMaxMs: number;
        resumeRetryDelaysMs: number[];
        unlockRetryDelaysMs: number[];
        takeoverAnswerGraceMs: number;
        consentWindowMs: number;
        activityTarget: EventTarget | null;
        closeOnPageHide: boolean;
        openSocket: ((url: string, token: string) => SocketLike) | null;
        resumeStorage: Storage | null;
        resumeStorageKey: string;
        reloadResumeRetryDelaysMs: number[];
        tokenIn: string;
        reauthLeadMs: number;
        reauthRetryMs: number;
    };
    /** @type {ConnectionState} */
    state: ConnectionState;
    /** @type {Welcome | null} the current socket's welcome */
    welcome: Welcome | null;
    /** @type {Map<string, Lock>} the locks this client holds, by canonical string, with their tokens; also the
     *  grants the user's other tabs got from a line or a take-over, which every socket of the user is told of */
    locks: Map<string, Lock>;
    /** @type {Set<number>} configurators this client watches (re-watched after a reconnect) */
    watched: Set<number>;
    /** @type {Map<string, number>} the lines this user waits in (canonical string -> position, 1 = next) */
    waiting: Map<string, number>;
    /** @type {Map<string, Takeover>} this client's take-over requests that stand (canonical string -> the
     *  request), until their outcome arrives; a reloaded page takes over those of the page before */
    takeovers: Map<string, Takeover>;
    /** @param {EditlockClientOptions} options */
    constructor(options: EditlockClientOptions);
    /**
     * Opens the socket. Resolves with the `welcome` once it is ready; rejects if the first attempt
     * fails (later drops are reconnected by themselves).
     * @returns {Promise<Welcome>}
     */
    connect(): Promise<Welcome>;
    /**
     * Closes the socket cleanly (1000): the server releases this socket's locks at once.
     * Pending and queued requests are rejected with `CLOSED`.
     * @param {string} [reason]
     */
    close(reason?: string): void;
    /**
     * Keeps the resume token of this socket in `resumeStorage` while the server keeps something for it
     * (locks, places in waiting lines, take-over requests), so that the next page this tab loads takes
     * them back (`resume` on connect) and learns its places in line again. Done by itself on `pagehide`.
     */
    rememberForReload(): void;
    /** @param {number} configuratorId @returns {Promise<Lock>} */
    lockConfigurator(configuratorId: number): Promise<Lock>;
    /** @param {number} configuratorId @returns {Promise<Lock>} */
    lockVariables(configuratorId: number): Promise<Lock>;
    /** @param {number} itemId @param {Page} page @returns {Promise<Lock>} */
    lockItemPage(itemId: number, page: Page): Promise<Lock>;
    /**
     * Locks whatever `resource` names (convenience for apps that keep resources). Like every lock request it
     * rejects with `LOCKED` (with `blocking`), `NOT_FOUND`, `RATE_LIMITED`, `LIMIT_EXCEEDED` (the user holds as
     * many locks in this configurator as one user may, docs/protocol.md §4) or `UNAVAILABLE`.
     * @param {Resource} resource
     * @returns {Promise<Lock>}
     */
    lock(resource: Resource): Promise<Lock>;
    /** @param {number} configuratorId @returns {Promise<object>} the `lock-released` data */
    unlockConfigurator(configuratorId: number): Promise<object>;
    /** @param {number} configuratorId @returns {Promise<object>} */
    unlockVariables(configuratorId: number): Promise<object>;
    /** @param {number} itemId @param {Page} page @returns {Promise<object>} */
    unlockItemPage(itemId: number, page: Page): Promise<object>;
    /**
     * Releases whatever lock `resource` names (convenience for apps that keep resources).
     * @param {Resource} resource
     * @returns {Promise<object>}
     */
    unlock(resource: Resource): Promise<object>;
    /**
     * Watches a configurator: resolves with its current lock state; `lock-updated`, `lock-released`
     * and `content-changed` of it follow as events. Re-watched after every reconnect.
     * @param {number} configuratorId
     * @returns {Promise<{configuratorId: number, locks: Lock[]}>}
     */
    watch(configuratorId: number): Promise<{
        configuratorId: number;
        locks: Lock[];
    }>;
    /** @param {number} configuratorId @returns {Promise<{configuratorId: number}>} */
    unwatch(configuratorId: number): Promise<{
        configuratorId: number;
    }>;
    /**
     * Tells the server the user is active (idle timeout). Sent by itself on user activity.
     * @returns {Promise<object>}
     */
    touch(): Promise<object>;
    /**
     * The lock this client holds on `resource`, if any (with its fencing token).
     * @param {Resource} resource
     * @returns {Lock | undefined}
     */
    heldLock(resource: Resource): Lock | undefined;
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
    requestTakeover(resource: Resource, message?: string): Promise<Takeover>;
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
    answerTakeover(resource: Resource, accept: boolean, byUserId?: string | null): Promise<{
        resource: Resource;
        accept: boolean;
    }>;
    /**
     * Waits in line for `resource`. Resolves with `{lock}` when it was free (granted at once), else with
     * `{resource, position}` (1 = next). Moving up arrives as `queue-updated`; being served as a
     * `lock-acquired` event whose `detail.queued` is true (the lock is then in `client.locks`).
     * Rejects with `LIMIT_EXCEEDED` (too many lines, or, for a page found free, too many locks in this
     * configurator) or `NOT_FOUND`.
     * @param {Resource} resource
     * @returns {Promise<{lock: Lock} | {resource: Resource, position: number}>}
     */
    waitFor(resource: Resource): Promise<{
        lock: Lock;
    } | {
        resource: Resource;
        position: number;
    }>;
    /**
     * Leaves the line for `resource` (also fine when not in it).
     * @param {Resource} resource
     * @returns {Promise<{resource: Resource}>}
     */
    stopWaiting(resource: Resource): Promise<{
        resource: Resource;
    }>;
}
export {};
