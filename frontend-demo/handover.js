// handover.js — asking for a locked page and waiting in line for it (docs/protocol.md §13, §14), in the demo:
// the read-only banner's "Ask <name> for this page" and "Notify me when it's free", and the holder's
// dialog with the asker's message, a countdown, and Keep / Hand over.

import { resourceKey } from './editlock-client.js';
import { h } from './dom.js';
import { boundInput } from './widgets.js';

/**
 * state.handover:
 *   asked   {key, holder, deadline} — our take-over request for the open page, while it stands
 *   queue   {key, position}         — our place in the open page's line
 *   request {resource, byUserName, message, deadline} — someone asks us for a page we hold
 *
 * @param {{client: import('./editlock-client.js').EditlockClient, state: object, render: Function,
 *          toast: Function, granted: (lock: object) => void, retry: (edit: object) => void}} app
 */
export function installHandover(app) {
  const { client, state, render, toast } = app;
  state.handover = { asked: null, queue: null, request: null };
  let ticker = null;
  const tick = () => {
    const pending = state.handover.asked || state.handover.request;
    if (pending && !ticker) {
      ticker = setInterval(() => render(), 1000);
    } else if (!pending && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };

  const grantedHere = (lock) => {
    const key = resourceKey(lock.resource);
    if (state.handover.asked && state.handover.asked.key === key) state.handover.asked = null;
    if (state.handover.queue && state.handover.queue.key === key) state.handover.queue = null;
    app.granted(lock);
    tick();
    render();
  };
  client.addEventListener('lock-acquired', (event) => {
    if (event.detail.queued) {
      toast('It\u2019s your turn: you can edit the page now.');
      grantedHere(event.detail.lock);
    }
  });
  client.addEventListener('takeover-granted', (event) => {
    toast('The page was handed over to you.');
    grantedHere(event.detail.lock);
  });
  client.addEventListener('takeover-refused', (event) => {
    if (state.handover.asked && state.handover.asked.key === resourceKey(event.detail.resource)) {
      state.handover.asked = null;
    }
    toast(`${event.detail.byUserName} keeps editing the page for now.`);
    tick();
    render();
  });
  client.addEventListener('lock-failed', (event) => {
    if (state.handover.asked && state.handover.asked.key === resourceKey(event.detail.resource)) {
      state.handover.asked = null;
      toast(`The page could not be handed over: ${event.detail.message}`, 'error');
      tick();
      render();
    }
  });
  client.addEventListener('queue-updated', (event) => {
    const key = resourceKey(event.detail.resource);
    if (state.handover.queue && state.handover.queue.key === key) {
      state.handover.queue.position = event.detail.position;
      render();
    }
  });
  client.addEventListener('takeover-requested', (event) => {
    state.handover.request = event.detail;
    tick();
    render();
  });
  client.addEventListener('lock-lost', (event) => {
    const request = state.handover.request;
    if (request && resourceKey(request.resource) === resourceKey(event.detail.resource)) {
      state.handover.request = null;
      tick();
    }
  });

  return {
    /** Asks the holder of the open page for it. */
    async askHolder(edit, message) {
      try {
        const pending = await client.requestTakeover(edit.resource, message || undefined);
        state.handover.asked = { key: edit.key, holder: edit.blockedBy ? edit.blockedBy.name : 'the editor', deadline: pending.deadline };
      } catch (failure) {
        if (failure.code === 'NOT_HELD') {
          app.retry(edit);
        } else if (failure.code === 'BUSY') {
          toast('Someone else already asked for this page. Try "Notify me when it\u2019s free".', 'error');
        } else {
          toast(failure.message, 'error');
        }
      }
      tick();
      render();
    },
    /** Joins the open page's line; the page becomes editable by itself when it is our turn. */
    async waitForPage(edit) {
      try {
        const reply = await client.waitFor(edit.resource);
        if (reply.lock) {
          grantedHere(reply.lock);
          return;
        }
        state.handover.queue = { key: edit.key, position: reply.position };
      } catch (failure) {
        toast(failure.message, 'error');
      }
      render();
    },
    async stopWaiting(edit) {
      state.handover.queue = null;
      render();
      await client.stopWaiting(edit.resource).catch(() => {});
    },
    /** The holder's answer to the request in the dialog. */
    async answer(accept) {
      const request = state.handover.request;
      state.handover.request = null;
      tick();
      render();
      if (request) {
        await client.answerTakeover(request.resource, accept).catch((failure) => toast(failure.message, 'error'));
      }
    },
    /** The open page is left: its line and request with it. */
    left(edit) {
      const queue = state.handover.queue;
      if (queue && queue.key === edit.key) {
        state.handover.queue = null;
        client.stopWaiting(edit.resource).catch(() => {});
      }
      if (state.handover.asked && state.handover.asked.key === edit.key) {
        state.handover.asked = null;
        tick();
      }
    },
  };
}

function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
}

function positionText(position) {
  if (position === 1) return 'You are next.';
  return `You are number ${position} in line.`;
}

/** What the read-only banner of a page someone else edits offers. */
export function blockedExtras(state, actions) {
  const edit = state.edit;
  const handover = state.handover || {};
  const holder = edit.blockedBy ? edit.blockedBy.name : 'the editor';
  const parts = [];
  if (handover.asked && handover.asked.key === edit.key) {
    parts.push(h('span', { class: 'handover-status', 'data-testid': 'takeover-pending' },
      `Asked ${handover.asked.holder} \u2014 the page is yours in ${secondsLeft(handover.asked.deadline)} s unless they keep it.`));
  } else {
    const key = `takeover-message:${edit.key}`;
    const message = boundInput(state, actions, key, '', { class: 'input small', type: 'text', maxlength: '200',
      placeholder: 'Message (optional)', 'aria-label': `Message to ${holder}`, 'data-testid': 'takeover-message' });
    parts.push(message, h('button', { class: 'button small', 'data-testid': 'ask-holder',
      on: { click: () => actions.askHolder(edit, String(state.drafts.get(key) || '').trim()) } }, `Ask ${holder} for this page`));
  }
  if (handover.queue && handover.queue.key === edit.key) {
    parts.push(h('span', { class: 'handover-status', 'data-testid': 'queue-position' }, positionText(handover.queue.position)),
      h('button', { class: 'button small ghost', 'data-testid': 'stop-waiting', on: { click: () => actions.stopWaiting(edit) } },
        'Stop waiting'));
  } else {
    parts.push(h('button', { class: 'button small', 'data-testid': 'wait-for',
      on: { click: () => actions.waitForPage(edit) } }, 'Notify me when it\u2019s free'));
  }
  return h('div', { class: 'handover' }, parts);
}

/** The holder's dialog: who asks, their message, the countdown, Keep / Hand over. */
export function takeoverDialog(state, actions) {
  const request = state.handover && state.handover.request;
  if (!request) {
    return null;
  }
  return h('div', { class: 'dialog-backdrop' },
    h('div', { class: 'dialog', role: 'alertdialog', 'aria-labelledby': 'takeover-title', 'data-testid': 'takeover-dialog' },
      h('h2', { id: 'takeover-title' }, `${request.byUserName} asks for the page you are editing`),
      request.message ? h('blockquote', { class: 'dialog-message', 'data-testid': 'takeover-request-message' }, request.message) : null,
      h('p', null, 'Save what you are doing, then hand it over \u2014 or keep it. Without an answer the page passes to ',
        request.byUserName, ' in ', h('strong', { 'data-testid': 'takeover-countdown' }, `${secondsLeft(request.deadline)} s`), '.'),
      h('div', { class: 'dialog-actions' },
        h('button', { class: 'button ghost', 'data-testid': 'takeover-keep', on: { click: () => actions.answerTakeover(false) } }, 'Keep'),
        h('button', { class: 'button', 'data-testid': 'takeover-handover', on: { click: () => actions.answerTakeover(true) } }, 'Hand over'))));
}
