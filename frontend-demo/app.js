// app.js — the demo's entry: builds its parts, draws the state whenever it changed, follows the URL.
// The parts, one job each, are in app/: the state store, navigation, the open configurator, the edit
// session of the open page, writes, signing in and out, the actions the views call. Rendering lives in
// views.js and pages.js; the socket in editlock-client.js; REST in api.js.

import { createFocusKeeper } from './dom.js';
import { renderApp } from './views.js';
import { loadSession, signedOutElsewhere } from './session.js';
import { createStore, initialState } from './app/store.js';
import { createToasts } from './app/toasts.js';
import { createNavigation } from './app/navigation.js';
import { createConfigurator } from './app/configurator.js';
import { createEditSession } from './app/edit-session.js';
import { createWrites } from './app/writes.js';
import { createSignIn } from './app/sign-in.js';
import { createActions } from './app/actions.js';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));
const store = createStore(initialState());

// The parts are set right below; each reaches the others only when it is called, after this.
const app = /** @type {import('./app/context.js').App} */ ({ state: store.state, render: store.changed, session: null });
app.toast = createToasts(app);
app.navigation = createNavigation(app);
app.configurator = createConfigurator(app);
app.edit = createEditSession(app);
app.writes = createWrites(app);
app.signIn = createSignIn(app);
const actions = createActions(app);

const redrawKeepingFocus = createFocusKeeper(root);
store.subscribe((state) => redrawKeepingFocus(() => renderApp(root, state, actions)));

window.addEventListener('hashchange', () => app.navigation.navigate());
window.addEventListener('storage', (event) => {
  if (app.state.auth && signedOutElsewhere(event)) {
    app.signIn.signOut();
  }
});
const saved = loadSession(localStorage);
if (saved) {
  app.signIn.startWorkspace(saved);
} else {
  app.render();
}
