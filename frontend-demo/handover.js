// handover.js — asking for a locked page and waiting in line for it (docs/protocol.md §13, §14), in the demo:
// the read-only banner's "Ask <name> for this page" and "Notify me when it's free", and the holder's
// dialog with the asker's message, a countdown, and Keep / Hand over.

import { resourceKey } from './editlock-client.js';
import { resourceOf } from './app/navigation.js';
import { h } from './dom.js';
import { boundInput } from './widgets.js';

/** Why a place in a line ended, by the `reason` of `not-waiting` (none is said when it is not known). */
const LEFT_LINE_BECAUSE = /** @type {Record<string, string>} */ ({
  disconnect: 'the window that asked for it was closed or lost its connection',
  stopped: 'you stopped waiting in another window',
  idle: 'you were inactive for too long',
  expired: 'the server lost touch with its store for too long',
});

/**
 * How long the words of a grant wait for the release of the lock it ended, which tells how the page became ours
 * (it comes right after the grant).
 */
const RELEASE_FOLLOWS_GRANT_MS = 2000;

/** How long a grant waits for the reloaded tab to open the page that asked for it, before it is given back. */
const PAGE_OPENS_WITHIN_MS = 15_000;

/** Where a tab keeps its take-over requests over a reload, with the page each was made for (beside the client's resume token). */
const ASKED_STORAGE_KEY = 'editlock-demo.asked';
/** The BroadcastChannel on which a tab that answered a take-over request tells the user's other tabs. */
const ANSWERS_CHANNEL = 'editlock-demo.takeover-answers';

/** @typedef {import('./app/store.js').State} State */
/** @typedef {import('./app/store.js').Edit} Edit */
/** @typedef {import('./editlock-client.js').Lock} Lock */

/**
 * A take-over request of ours: for the page `key`, of the lock `lock` (the page's own, or the one in its way:
 * a configurator lock), from `holder`, until `deadline`.
 * @typedef {{key: string, lock: string, holder: string, deadline: string}} Asked
 */

/**
 * state.handover:
 * @typedef {object} HandoverState
 * @property {Asked | null} asked our take-over request for the open page, while it stands
 * @property {{key: string, position: number} | null} queue our place in the open page's line
 * @property {{resource: import('./editlock-client.js').Resource, byUserId: string, byUserName: string, message: string, deadline: string} | null} request
 *   someone asks us for a page we hold
 */

/**
 * @param {{client: import('./editlock-client.js').EditlockClient, state: State, render: () => void,
 *          toast: import('./app/context.js').ToastFn, granted: (lock: Lock, forKey?: string, asked?: boolean) => void,
 *          retry: (edit: Edit) => void, sendPendingDeletes?: () => Promise<boolean>[],
 *          pageExists?: (resource: import('./editlock-client.js').Resource) => Promise<boolean>}} app `granted(lock, forKey, asked)`:
 *          a lock handed to us for the page `forKey`; `asked`: this tab asked for it (its socket keeps the lock,
 *          docs/protocol.md §13, §14); `sendPendingDeletes()`: sends the open page's deletes that wait for their Undo;
 *          `pageExists(resource)`: reads whether that page still exists (without it, it is taken to)
 */
export function installHandover(app) {
  const { client, state, render, toast } = app;
  /** @type {HandoverState} */
  const handover = { asked: null, queue: null, request: null };
  state.handover = handover;
  /**
   * Our take-over requests that still stand for pages the user has left, by the lock asked for (null: made
   * by the page before a reload of the tab, for a page not known here). A request cannot be withdrawn
   * (docs/protocol.md §13), so its outcome still comes: a grant is given back at once (a configurator lock
   * kept for nobody would shut everyone out of the whole configurator), a refusal is forgotten. Coming
   * back to the page makes the request the page's again.
   * @type {Map<string, Asked | null>}
   */
  const askedForLeftPages = new Map();
  /**
   * Who asked us for a page we hold, by its key, and whether the user handed it over here: a `lock-lost`
   * `taken-over` says who has the page, and whether they got it by a yes or when the time ran out.
   * @type {Map<string, import('./model.js').TakenOver>}
   */
  const askedOfUs = new Map();
  /**
   * Requests for pages we hold that were not open when they came (a reloaded tab hears them before it
   * opens its page again), by the page's key: the dialog shows when the page opens, while they stand.
   * @type {Map<string, NonNullable<HandoverState['request']>>}
   */
  const requestsForClosedPages = new Map();
  /**
   * Grants of our requests that came while the reloaded tab was still opening the page that asked (its
   * route names it, no page is open yet), by that page's key: the page takes them when it opens.
   * @type {Map<string, {lock: Lock, asked: Asked, grantedAt: number}>}
   */
  const grantsForOpening = new Map();
  /** @type {ReturnType<typeof setTimeout> | null} */
  let openingTimer = null;
  /**
   * How the locks we asked for were released, by the lock, when the release came before the grant: a
   * `takeover-granted` does not say whether the holder handed the page over, did not answer in time, or
   * left it (docs/protocol.md §13); the release of their lock does, by its reason.
   * @type {Map<string, string>}
   */
  const releasedAs = new Map();
  /**
   * Grants of our requests whose words wait for that release, by the lock.
   * @type {Map<string, {asked: Asked | null, grantedAt: number, timer: ReturnType<typeof setTimeout>}>}
   */
  const grantsToTell = new Map();
  /** @type {WeakSet<Edit>} the edit sessions of pages left, so that a request whose reply comes after is known as one */
  const leftSessions = new WeakSet();
  /** @type {ReturnType<typeof setInterval> | null} */
  let ticker = null;
  /**
   * @param {string} type
   * @param {(detail: any) => void} handle
   */
  const on = (type, handle) => client.addEventListener(type, (event) => handle(/** @type {CustomEvent} */ (event).detail));
  /**
   * Whether the holder's dialog can still be answered here: its lock is still ours in this client (not
   * unlocked, lost, or left), and the consent window is open. Another tab of ours that refused tells
   * this one nothing (docs/protocol.md §13), so the deadline is what ends the dialog then.
   * @param {NonNullable<HandoverState['request']>} request
   */
  const requestStands = (request) => Boolean(client.heldLock(request.resource)) && Date.parse(request.deadline) > Date.now();
  const everySecond = () => {
    if (handover.request && !requestStands(handover.request)) {
      handover.request = null;
    }
    tick();
    render();
  };
  /** Runs the countdowns' clock while there is a countdown to show, and only then. */
  const tick = () => {
    const pending = handover.asked || handover.request;
    if (pending && !ticker) {
      ticker = setInterval(everySecond, 1000);
    } else if (!pending && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };
  /** @param {string} key the page whose lock this client no longer keeps: no dialog about it stays */
  const dismissRequestFor = (key) => {
    if (handover.request && resourceKey(handover.request.resource) === key) {
      handover.request = null;
      tick();
      render();
    }
  };

  /**
   * A request kept for a page left becomes the open page's again when that is the page it was made for
   * (a reloaded tab hears its outcome before or after it opens the page again).
   * @param {string} lock
   */
  const claimForOpenPage = (lock) => {
    const asked = askedForLeftPages.get(lock);
    if (asked && state.edit?.key === asked.key && !handover.asked) {
      askedForLeftPages.delete(lock);
      handover.asked = asked;
      tick();
    }
  };

  /** @param {string} lock @returns {boolean} whether a request of this tab for that lock stands or was just granted */
  const askedFor = (lock) => handover.asked?.lock === lock || askedForLeftPages.has(lock)
    || [...grantsForOpening.values()].some(({ asked }) => asked.lock === lock);

  /**
   * Tells the user the page asked for is theirs, in words true to how: once the release of the holder's
   * lock says why it ended, or, if none comes, in words true whatever happened.
   * @param {string} lock
   * @param {Asked | null} asked
   * @param {number} grantedAt when the grant was made, by the server's clock (the lock's acquiredAt), which set
   *   the deadline too: the browser's clock may be off by more than the moment between the two
   */
  const tellGranted = (lock, asked, grantedAt) => {
    const reason = releasedAs.get(lock);
    releasedAs.delete(lock);
    if (reason) {
      toast(grantedText(reason, asked, grantedAt));
      return;
    }
    const timer = setTimeout(() => {
      grantsToTell.delete(lock);
      toast(grantedText(null, asked, grantedAt));
    }, RELEASE_FOLLOWS_GRANT_MS);
    grantsToTell.set(lock, { asked, grantedAt, timer });
  };
  on('lock-released', (detail) => {
    if (!detail.resource || detail.ownerUserId === client.welcome?.userId) {
      return; // one of ours (a page given back): not the holder's
    }
    const lock = resourceKey(detail.resource);
    const waiting = grantsToTell.get(lock);
    if (waiting) {
      clearTimeout(waiting.timer);
      grantsToTell.delete(lock);
      toast(grantedText(detail.reason, waiting.asked, waiting.grantedAt));
    } else if (askedFor(lock)) {
      releasedAs.set(lock, detail.reason);
    }
  });

  /**
   * @param {Lock} lock
   * @param {boolean} [askedHere] asked for by this tab's socket (a wait-for answered with the lock)
   */
  const grantedHere = (lock, askedHere = false) => {
    const key = resourceKey(lock.resource);
    const asked = handover.asked;
    // Only the sockets that asked keep a grant from a line or a hand-over: this tab's line or request.
    const keptHere = askedHere || asked?.lock === key || handover.queue?.key === key;
    if (asked && asked.lock === key) handover.asked = null;
    if (handover.queue && handover.queue.key === key) handover.queue = null;
    // A lock asked for because it stood in the open page's way is handed on for that page.
    app.granted(lock, asked && asked.lock === key ? asked.key : key, keptHere);
    tick();
    render();
  };
  on('lock-acquired', (detail) => {
    if (detail.queued) {
      const key = resourceKey(detail.lock.resource);
      // Every tab of the user hears the grant; only the one showing the page or its line says so.
      if (handover.queue?.key === key || state.edit?.key === key) {
        toast('It\u2019s your turn: you can edit the page now.');
      }
      grantedHere(detail.lock);
    }
  });
  on('takeover-granted', (detail) => {
    const key = resourceKey(detail.lock.resource);
    claimForOpenPage(key);
    const asked = askedForLeftPages.get(key);
    const opening = asked && !state.edit && state.route ? resourceOf(state.route) : null;
    if (asked && opening && resourceKey(opening) === asked.key) {
      // A reloaded tab still opening the page that asked: the grant is that page's once it opens.
      askedForLeftPages.delete(key);
      grantsForOpening.set(asked.key, { lock: detail.lock, asked, grantedAt: Date.parse(detail.lock.acquiredAt) });
      openingTimer ??= setTimeout(() => {
        openingTimer = null;
        grantsForOpening.forEach(({ lock }) => client.unlock(lock.resource).catch(() => {}));
        grantsForOpening.clear();
      }, PAGE_OPENS_WITHIN_MS);
      return;
    }
    if (askedForLeftPages.delete(key) && state.edit?.key !== key) {
      // Asked for a page the user has left, and not the page open now: nobody is editing with it.
      client.unlock(detail.lock.resource).catch(() => {});
      return;
    }
    // Every tab of the user hears of the grant; only the tab that asked, or one showing the page, has news.
    if (handover.asked?.lock === key || state.edit?.key === key) {
      tellGranted(key, handover.asked?.lock === key ? handover.asked : null, Date.parse(detail.lock.acquiredAt));
    }
    grantedHere(detail.lock);
  });
  on('takeover-refused', (detail) => {
    claimForOpenPage(resourceKey(detail.resource));
    if (askedForLeftPages.delete(resourceKey(detail.resource))) {
      return; // about a page the user has left: nothing to tell
    }
    if (handover.asked && handover.asked.lock === resourceKey(detail.resource)) {
      handover.asked = null;
    }
    toast(`${detail.byUserName} keeps editing the page for now.`);
    tick();
    render();
  });
  on('lock-failed', (detail) => {
    if (detail.resource) {
      releasedAs.delete(resourceKey(detail.resource)); // the request ended without a grant
      claimForOpenPage(resourceKey(detail.resource));
    }
    if (detail.resource && askedForLeftPages.delete(resourceKey(detail.resource))) {
      return; // a request for a page the user has left ended: nothing to tell
    }
    if (handover.asked && handover.asked.lock === resourceKey(detail.resource)) {
      handover.asked = null;
      toast(`The page could not be handed over: ${detail.message}`, 'error');
      tick();
      render();
    }
  });
  on('queue-updated', (detail) => {
    const key = resourceKey(detail.resource);
    if (handover.queue && handover.queue.key === key) {
      handover.queue.position = detail.position;
      render();
    }
  });
  on('not-waiting', (detail) => {
    const key = resourceKey(detail.resource);
    if (handover.queue && handover.queue.key === key) {
      handover.queue = null;
      const why = LEFT_LINE_BECAUSE[detail.reason];
      /** @param {boolean} exists */
      const tell = (exists) => {
        // A page that is gone has no "Notify me" to click: the store lost it (its data), or it was deleted.
        toast(exists
          ? `You are no longer in line for this page${why ? `: ${why}` : ''}. Click \u201cNotify me when it\u2019s free\u201d to line up again.`
          : 'You are no longer in line for this page: it no longer exists.', 'error');
        render();
      };
      if (app.pageExists) {
        render();
        // The open page's resource names its configurator; a place that ended with the store's data may not.
        app.pageExists(state.edit?.key === key ? state.edit.resource : detail.resource).then(tell, () => tell(true));
      } else {
        tell(true);
      }
    }
  });
  /**
   * The requests answered, here or in another tab of the user, by page and deadline: a resume tells of a
   * standing request again (docs/protocol.md §5), also of one whose answer was still on its way, and a
   * question answered must not come back.
   * @type {Set<string>}
   */
  const answered = new Set();
  const answerOf = (/** @type {string} */ key, /** @type {string} */ deadline) => `${key}|${deadline}`;
  // Every tab of the holder that shows the page is asked, and the server tells none of them of an answer
  // given in another (docs/protocol.md §13): the tab that answers tells the others, which put the question away.
  const answers = typeof BroadcastChannel === 'function' ? new BroadcastChannel(ANSWERS_CHANNEL) : null;
  /** @type {any} */ (answers)?.unref?.(); // Node (the tests): a channel must not keep the process running
  if (answers) {
    answers.onmessage = (/** @type {MessageEvent} */ { data }) => {
      if (!data || data.userId !== client.welcome?.userId) {
        return;
      }
      const sameRequest = (/** @type {HandoverState['request']} */ request) => Boolean(request)
        && resourceKey(/** @type {any} */ (request).resource) === data.key && /** @type {any} */ (request).deadline === data.deadline;
      if (sameRequest(requestsForClosedPages.get(data.key) || null)) {
        requestsForClosedPages.delete(data.key);
      }
      answered.add(answerOf(data.key, data.deadline));
      if (sameRequest(handover.request)) {
        handover.request = null;
        tick();
        render();
      }
    };
  }
  /** @param {object} answer */
  const tellOtherTabs = (answer) => {
    try {
      answers?.postMessage(answer);
    } catch {
      // closed (signed out): no tab of this user is left to tell
    }
  };
  on('takeover-requested', (detail) => {
    // Every socket of the holder is asked; the dialog belongs where the page is held and open (the tab
    // editing it). Other tabs need none: the answer of one is the user's.
    const key = resourceKey(detail.resource);
    if (!client.heldLock(detail.resource) || answered.has(answerOf(key, detail.deadline))) {
      return;
    }
    askedOfUs.set(key, { byUserName: detail.byUserName, handedOver: false });
    if (state.edit?.key !== key) {
      requestsForClosedPages.set(key, detail);
      return;
    }
    handover.request = detail;
    tick();
    render();
  });
  on('lock-lost', (detail) => {
    requestsForClosedPages.delete(resourceKey(detail.resource));
    dismissRequestFor(resourceKey(detail.resource));
  });
  on('resumed', (detail) => {
    if (!detail.reload) {
      return;
    }
    // A reloaded tab: the requests of the page before are ours now. Each is kept for the page it was made
    // for, which takes it back when it opens (or has opened) here; one whose page is not known is for none.
    const remembered = recallAsked();
    for (const { resource, deadline } of detail.takeovers || []) {
      const key = resourceKey(resource);
      if (askedForLeftPages.has(key) || handover.asked?.lock === key) {
        continue;
      }
      const asked = remembered.get(key);
      askedForLeftPages.set(key, asked ? { ...asked, deadline: deadline || asked.deadline } : null);
      claimForOpenPage(key);
    }
    render();
  });

  const storage = client.options.resumeStorage;
  /** What this tab asked for and is still to hear about, with the page of each, for the page loaded next. */
  const rememberAsked = () => {
    const standing = [...askedForLeftPages.values(), handover.asked].filter((asked) => asked !== null);
    try {
      if (standing.length > 0) {
        storage?.setItem(ASKED_STORAGE_KEY, JSON.stringify(standing));
      } else {
        storage?.removeItem(ASKED_STORAGE_KEY);
      }
    } catch {
      // Storage full or blocked: the next page gives back what is handed over for these requests.
    }
  };
  /** @returns {Map<string, Asked>} what the page before asked for, by the lock asked for */
  const recallAsked = () => {
    /** @type {Map<string, Asked>} */
    const remembered = new Map();
    try {
      const saved = JSON.parse(storage?.getItem(ASKED_STORAGE_KEY) || '[]');
      storage?.removeItem(ASKED_STORAGE_KEY);
      for (const asked of Array.isArray(saved) ? saved : []) {
        if (asked && typeof asked.key === 'string' && typeof asked.lock === 'string' && typeof asked.holder === 'string'
          && typeof asked.deadline === 'string') {
          remembered.set(asked.lock, { key: asked.key, lock: asked.lock, holder: asked.holder, deadline: asked.deadline });
        }
      }
    } catch {
      // Unreadable: as if the page before had kept nothing.
    }
    return remembered;
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', rememberAsked);
  }

  /**
   * A request-takeover for the open page was refused: tells the user, or names the next lock to ask for.
   * `LOCKED` names another lock in the way. The same holder's is asked for at once: it is the person the
   * user chose (they hold the configurator, the page was free). Someone else's is shown instead, for the
   * user to decide whom to ask.
   * @param {Edit} edit
   * @param {import('./editlock-client.js').EditlockError} failure
   * @param {Set<string>} tried the locks asked for on this click
   * @returns {import('./editlock-client.js').Resource | null} the lock to ask for next
   */
  const refusedAsking = (edit, failure, tried) => {
    if (failure.code === 'NOT_HELD') {
      app.retry(edit); // nothing is in the page's way any more: lock it
    } else if (failure.code === 'BUSY') {
      toast('Someone else already asked for this page. Try "Notify me when it\u2019s free".', 'error');
    } else if (failure.code === 'LOCKED' && failure.blocking) {
      const { resource } = failure.blocking;
      const holder = edit.blockedBy;
      if (holder && holder.userId === failure.lockedByUserId) {
        if (!tried.has(resourceKey(resource))) {
          edit.blockedBy = { ...holder, resource };
          return resource;
        }
        toast(`${holder.name} holds more than one lock in the way of this page, so it cannot be handed over. `
          + 'Try "Notify me when it\u2019s free".', 'error');
      } else {
        const name = failure.lockedBy || 'someone else';
        edit.blockedBy = { name, userId: failure.lockedByUserId, resource };
        toast(`${failure.message}. Ask ${name} for this page, or wait until it\u2019s free.`, 'error');
      }
    } else {
      toast(failure.message, 'error');
    }
    return null;
  };

  return {
    /**
     * A page opens: if the client already waits in its line (a reloaded tab rejoined it), show the place.
     * @param {Edit} edit
     */
    opened(edit) {
      for (const [pageKey, { lock, asked, grantedAt }] of grantsForOpening) {
        if (pageKey === edit.key) {
          handover.asked = asked;
          // After the page's own first steps: the grant then serves it as one that came while it was blocked.
          queueMicrotask(() => {
            tellGranted(asked.lock, asked, grantedAt);
            grantedHere(lock);
          });
        } else {
          client.unlock(lock.resource).catch(() => {}); // the tab opened another page: nobody edits with it
        }
      }
      grantsForOpening.clear();
      if (openingTimer) {
        clearTimeout(openingTimer);
        openingTimer = null;
      }
      const request = requestsForClosedPages.get(edit.key);
      requestsForClosedPages.delete(edit.key);
      if (request && requestStands(request)) {
        handover.request = request;
        tick();
      }
      const position = client.waiting.get(edit.key);
      if (position) {
        handover.queue = { key: edit.key, position };
      }
      for (const [lock, asked] of askedForLeftPages) {
        if (asked && asked.key === edit.key) {
          askedForLeftPages.delete(lock); // back on the page it asked for: its outcome is this page's again
          handover.asked = asked;
          tick();
          break;
        }
      }
    },
    /**
     * Asks for the open page: for the lock in its way (the refusal's `blocking`: the page's own lock, or
     * the configurator lock of someone editing the structure), from its holder (docs/protocol.md §13).
     * @param {Edit} edit
     * @param {string} [message]
     */
    async askHolder(edit, message) {
      let wanted = edit.blockedBy?.resource || edit.resource;
      /** the locks asked for on this click: a refusal that names one of them again ends it instead of going round */
      const tried = new Set();
      for (;;) {
        tried.add(resourceKey(wanted));
        try {
          const pending = await client.requestTakeover(wanted, message || undefined);
          const lock = resourceKey(wanted);
          /** @type {Asked} */
          const asked = { key: edit.key, lock, holder: edit.blockedBy ? edit.blockedBy.name : 'the editor', deadline: pending.deadline };
          if (leftSessions.has(edit) && state.edit?.key !== edit.key) {
            askedForLeftPages.set(lock, asked); // the user left the page while the request was on its way
          } else {
            askedForLeftPages.delete(lock); // asked again from this page: a request left standing is joined, the same one
            handover.asked = asked;
          }
          releasedAs.delete(lock); // a release before this request says nothing about its outcome
          break;
        } catch (caught) {
          const next = refusedAsking(edit, /** @type {import('./editlock-client.js').EditlockError} */ (caught), tried);
          if (!next) {
            break;
          }
          wanted = next;
        }
      }
      tick();
      render();
    },
    /** Joins the open page's line; the page becomes editable by itself when it is our turn. @param {Edit} edit */
    async waitForPage(edit) {
      try {
        const reply = await client.waitFor(edit.resource);
        if ('lock' in reply) {
          grantedHere(reply.lock, true);
          return;
        }
        handover.queue = { key: edit.key, position: reply.position };
      } catch (failure) {
        toast(/** @type {Error} */ (failure).message, 'error');
      }
      render();
    },
    /** @param {Edit} edit */
    async stopWaiting(edit) {
      handover.queue = null;
      render();
      await client.stopWaiting(edit.resource).catch(() => {});
    },
    /** The holder's answer to the request in the dialog. @param {boolean} accept */
    async answer(accept) {
      const request = handover.request;
      handover.request = null;
      tick();
      render();
      if (request) {
        const asked = askedOfUs.get(resourceKey(request.resource));
        if (asked) {
          asked.handedOver = accept;
        }
        answered.add(answerOf(resourceKey(request.resource), request.deadline));
        tellOtherTabs({ userId: client.welcome?.userId, key: resourceKey(request.resource), deadline: request.deadline, accept });
        if (accept) {
          // As when leaving the page: the deletes waiting for their Undo go out while our lock still fences them.
          await Promise.allSettled(app.sendPendingDeletes?.() ?? []);
        }
        // Named: the dialog's asker, not whoever asked last (one who left may have been followed by another).
        await client.answerTakeover(request.resource, accept, request.byUserId)
          .catch((failure) => toast(answerFailureText(failure), 'error'));
      }
    },
    /**
     * Who last asked us for the page `key` (from their `takeover-requested`), and whether the user handed
     * it over here: for the words of a `lock-lost` `taken-over`.
     * @param {string} key
     * @returns {import('./model.js').TakenOver | null}
     */
    takenOver: (key) => askedOfUs.get(key) || null,
    /** Keeps this tab's standing requests for the page it loads next; done by itself on `pagehide`. */
    rememberForReload: rememberAsked,
    /**
     * The open page is left: its line with it, and the dialog about its lock. Its take-over request stands
     * (there is no withdrawing it): it is kept among those of pages left.
     * @param {Edit} edit
     */
    left(edit) {
      leftSessions.add(edit);
      const queue = handover.queue;
      if (queue && queue.key === edit.key) {
        handover.queue = null;
        client.stopWaiting(edit.resource).catch(() => {});
      }
      if (handover.asked && handover.asked.key === edit.key) {
        askedForLeftPages.set(handover.asked.lock, handover.asked); // it stands: its outcome still comes
        handover.asked = null;
        tick();
      }
      dismissRequestFor(edit.key);
    },
    /**
     * Signed out: nothing of this user stays on screen, and the countdowns' clock stops. The client's close
     * that follows ends our requests (docs/protocol.md §13) and frees whatever was granted meanwhile.
     */
    close() {
      if (typeof window !== 'undefined') {
        window.removeEventListener('pagehide', rememberAsked);
      }
      try {
        storage?.removeItem(ASKED_STORAGE_KEY);
      } catch {
        // blocked storage kept nothing either
      }
      Object.assign(handover, { asked: null, queue: null, request: null });
      askedForLeftPages.clear();
      grantsForOpening.clear();
      if (openingTimer) {
        clearTimeout(openingTimer);
        openingTimer = null;
      }
      askedOfUs.clear();
      releasedAs.clear();
      grantsToTell.forEach(({ timer }) => clearTimeout(timer));
      grantsToTell.clear();
      requestsForClosedPages.clear();
      answered.clear();
      answers?.close();
      tick();
    },
  };
}

/**
 * Why an answer to a take-over request did not get through, in the user's words.
 * @param {any} failure
 * @returns {string}
 */
export function answerFailureText(failure) {
  switch (failure && failure.code) {
    case 'NOT_FOUND':
      return 'The request had already ended: its countdown was over, the person who asked left, or the page passed on meanwhile.';
    case 'TIMEOUT':
    case 'DISCONNECTED':
    case 'CLOSED':
      return 'Your answer could not be sent: the connection was lost. Without an answer the page passes on when the countdown ends.';
    default:
      return failure && failure.message ? failure.message : 'Your answer could not be sent.';
  }
}

/**
 * How a page asked for became the user's, in words: only a release `taken-over` (docs/protocol.md §13) is a
 * hand-over, with the holder's yes when it came before the deadline the asker's countdown showed, else because
 * the holder did not answer in time. Any other release freed the page (the holder left it, closed the tab); without
 * a release to tell, or the request to tell by, only what is true either way is said.
 * @param {string | null} reason the release's reason, if it came
 * @param {Asked | null} asked the request, if this tab knows it
 * @param {number} grantedAt when the grant was made, by the server's clock (its acquiredAt): before the deadline
 *   it was handed over, at or after it the sweep passed it on
 * @returns {string}
 */
export function grantedText(reason, asked, grantedAt) {
  if (reason !== 'taken-over' || !asked) {
    return 'The page is yours now.';
  }
  return grantedAt < Date.parse(asked.deadline)
    ? `${asked.holder} handed the page over to you.`
    : `${asked.holder} did not answer in time, so the page passed to you.`;
}

/** @param {string} deadline */
function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
}

/** @param {number} position */
function positionText(position) {
  if (position === 1) return 'You are next.';
  return `You are number ${position} in line.`;
}

/** @typedef {ReturnType<typeof import('./app/actions.js').createActions>} Actions */

/**
 * What the read-only banner of a page someone else edits offers.
 * @param {State} state
 * @param {Actions} actions
 */
export function blockedExtras(state, actions) {
  const edit = /** @type {Edit} */ (state.edit);
  const handover = state.handover || { asked: null, queue: null, request: null };
  const holder = edit.blockedBy ? edit.blockedBy.name : 'the editor';
  const parts = [];
  if (handover.asked && handover.asked.key === edit.key) {
    // Announced without its countdown, which changes every second.
    parts.push(h('span', { class: 'handover-status', 'data-testid': 'takeover-pending',
      'data-announce': `Asked ${handover.asked.holder}. The page is yours when the time is up, unless they keep it.` },
    `Asked ${handover.asked.holder} \u2014 the page is yours in ${secondsLeft(handover.asked.deadline)} s unless they keep it.`));
  } else {
    const key = `takeover-message:${edit.key}`;
    const message = boundInput(state, actions, key, '', { class: 'input small', type: 'text', maxlength: '200',
      placeholder: 'Message (optional)', 'aria-label': `Message to ${holder}`, 'data-testid': 'takeover-message' });
    /** @param {Event} event */
    const ask = (event) => {
      event.preventDefault();
      actions.askHolder(edit, String(state.drafts.get(key) || '').trim());
    };
    // A form, for Enter in the message to ask as the button does.
    parts.push(h('form', { class: 'handover-ask', 'data-testid': 'takeover-form', on: { submit: ask } },
      message, h('button', { type: 'submit', class: 'button small', 'data-testid': 'ask-holder', 'data-focus-key': 'ask-holder' },
        `Ask ${holder} for this page`)));
  }
  if (handover.queue && handover.queue.key === edit.key) {
    parts.push(h('span', { class: 'handover-status', 'data-testid': 'queue-position', 'data-announce': '' }, positionText(handover.queue.position)),
      h('button', { class: 'button small ghost', 'data-testid': 'stop-waiting', 'data-focus-key': 'line', on: { click: () => actions.stopWaiting(edit) } },
        'Stop waiting'));
  } else {
    parts.push(h('button', { class: 'button small', 'data-testid': 'wait-for', 'data-focus-key': 'line',
      on: { click: () => actions.waitForPage(edit) } }, 'Notify me when it\u2019s free'));
  }
  return h('div', { class: 'handover' }, parts);
}

/**
 * The holder's panel: who asks, their message, the countdown, Keep / Hand over. Not modal, for its own advice to
 * be followed: the page stays usable, so that the holder can save before handing over. It takes the focus when it
 * appears (app.js, dom.js createFocusKeeper), on Keep; Tab leads on into the page, and Shift+Tab from the page's
 * first control back to it. Escape is Keep.
 * @param {State} state
 * @param {Actions} actions
 */
export function takeoverPanel(state, actions) {
  const request = state.handover && state.handover.request;
  if (!request) {
    return null;
  }
  /** @param {KeyboardEvent} event */
  const keepOnEscape = (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      actions.answerTakeover(false);
    }
  };
  return h('section', {
    class: 'takeover-panel', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'takeover-title',
    'aria-describedby': 'takeover-advice', 'data-testid': 'takeover-dialog',
    'data-takes-focus': `takeover:${resourceKey(request.resource)}:${request.deadline}`, on: { keydown: keepOnEscape },
  },
  h('h2', { id: 'takeover-title' }, `${request.byUserName} asks for the page you are editing`),
  request.message ? h('blockquote', { class: 'dialog-message', 'data-testid': 'takeover-request-message' }, request.message) : null,
  h('p', { id: 'takeover-advice' }, 'Save what you are doing, then hand it over \u2014 or keep it. Without an answer the page passes to ',
    request.byUserName, ' in ', h('strong', { 'data-testid': 'takeover-countdown' }, `${secondsLeft(request.deadline)} s`), '.'),
  h('div', { class: 'dialog-actions' },
    h('button', { class: 'button ghost', 'data-testid': 'takeover-keep', 'data-focus-key': 'takeover-keep', 'data-autofocus': true,
      'aria-keyshortcuts': 'Escape', on: { click: () => actions.answerTakeover(false) } }, 'Keep'),
    h('button', { class: 'button', 'data-testid': 'takeover-handover', 'data-focus-key': 'takeover-handover',
      on: { click: () => actions.answerTakeover(true) } }, 'Hand over')));
}
