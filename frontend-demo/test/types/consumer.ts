// An app of the package's, as TypeScript sees it through editlock-client.d.ts: type-checked by npm test
// (test/types.test.js), never run. The lines after `@ts-expect-error` must be refused.

import {
  EditlockClient,
  EditlockError,
  PAGES,
  resourceKey,
  type ConnectionState,
  type EditlockClientEventMap,
  type Lock,
  type LockEndReason,
  type LockLostDetail,
  type Resource,
} from 'editlock-frontend-demo';

// @ts-expect-error the client's own bookkeeping is not part of the API
type NoLink = import('editlock-frontend-demo').Link;
// @ts-expect-error the client's own bookkeeping is not part of the API
type NoPending = import('editlock-frontend-demo').Pending;
export type Hidden = NoLink | NoPending;

export async function editPage(token: () => Promise<string>): Promise<Lock | undefined> {
  const client = new EditlockClient({ token, resumeStorage: null, tokenIn: 'query' });

  // Typed events: the detail of each known name.
  client.addEventListener('lock-lost', (e) => {
    const reason: LockEndReason = e.detail.reason;
    const lost: LockLostDetail = e.detail;
    if (e.detail.refusal?.code === 'LOCKED') {
      console.log(e.detail.refusal.lockedBy, e.detail.refusal.blocking?.resource);
    }
    return [reason, resourceKey(lost.resource)];
  });
  client.addEventListener('lock-updated', (e) => e.detail.locks.map((lock) => lock.ownerUserName));
  client.addEventListener('lock-released', (e) => e.detail.reason === 'taken-over');
  client.addEventListener('content-changed', (e) => `${e.detail.entity}:${e.detail.id}:${e.detail.op}`);
  client.addEventListener('lock-acquired', (e) => e.detail.queued === true && e.detail.lock.token);
  client.addEventListener('lock-failed', (e) => e.detail.code === 'LOCKED' && e.detail.blocking?.ownerUserName);
  client.addEventListener('takeover-requested', (e) =>
    client.answerTakeover(e.detail.resource, e.detail.deadline > new Date().toISOString()));
  client.addEventListener('takeover-granted', (e) => e.detail.lock.token);
  client.addEventListener('takeover-refused', (e) => e.detail.byUserName);
  client.addEventListener('queue-updated', (e) => e.detail.position);
  client.addEventListener('not-waiting', (e) => e.detail.reason === 'idle' && e.detail.refusal?.code);
  client.addEventListener('statechange', function (e) {
    const state: ConnectionState = e.detail.state;
    return this.state === state && e.detail.previous;
  });
  client.addEventListener('connected', (e) => e.detail.reconnected || e.detail.welcome.userName);
  client.addEventListener('disconnected', (e) => e.detail.willReconnect || e.detail.code);
  client.addEventListener('reconnecting', (e) => e.detail.attempt * e.detail.delayMs);
  client.addEventListener('resumed', (e) => e.detail.reload && e.detail.takeovers.map((t) => t.deadline));
  client.addEventListener('reauthed', (e) => Date.parse(e.detail.expiresAt));
  client.addEventListener('reauth-failed', (e) => e.detail.error instanceof EditlockError && e.detail.error.code);

  // Any other name, and listener objects, as on every EventTarget.
  client.addEventListener('something-else', (e: Event) => e.type);
  client.addEventListener('lock-lost', { handleEvent: (e: Event) => e.type }, { once: true });

  // A listener kept for removal, typed by the event map.
  const onResumed = (e: EditlockClientEventMap['resumed']) => e.detail.locks.length;
  client.addEventListener('resumed', onResumed);
  client.removeEventListener('resumed', onResumed);

  // Still an EventTarget.
  const target: EventTarget = client;
  target.dispatchEvent(new Event('something-else'));

  await client.connect();
  const page: Resource = { type: 'item-subresource', itemId: 5, page: 'filters' };
  try {
    const lock = await client.lockItemPage(5, 'filters');
    return client.heldLock(page) ?? lock;
  } catch (e) {
    if (e instanceof EditlockError && e.code === 'LOCKED') {
      await client.waitFor(page);
    }
    return undefined;
  } finally {
    void PAGES;
  }
}

export function wrongUses(client: EditlockClient): void {
  // @ts-expect-error a misspelled detail property of a known event
  client.addEventListener('lock-lost', (e) => e.detail.reasn);
  // @ts-expect-error the detail of another event
  client.addEventListener('statechange', (e) => e.detail.resource);
  // @ts-expect-error a reason no lock ends for
  client.addEventListener('lock-released', (e) => e.detail.reason === 'stolen');
  // @ts-expect-error a listener for another event's detail
  client.addEventListener('queue-updated', (e: EditlockClientEventMap['lock-lost']) => e.detail.reason);
  // @ts-expect-error an item id is a number
  void client.lockItemPage('5', 'filters');
  // @ts-expect-error not a page of an item
  void client.lockItemPage(5, 'filter');
  // @ts-expect-error options need a token
  void new EditlockClient({ url: 'wss://example.test/locking' });
}
