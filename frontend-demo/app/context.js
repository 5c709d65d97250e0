// context.js — what the parts of the demo share. Each part is a module with one job; they reach
// each other through this object, built once in app.js.

/**
 * @callback ToastFn
 * @param {string} text
 * @param {'info' | 'success' | 'error'} [kind]
 * @param {{action?: {label: string, run: () => void} | null, ms?: number}} [options]
 * @returns {() => void} closes it
 */

/**
 * The signed-in user's connections: the socket client, the REST API, the take-over and waiting part.
 * @typedef {object} Session
 * @property {import('../editlock-client.js').EditlockClient} client
 * @property {import('../api.js').Api} api
 * @property {ReturnType<typeof import('../handover.js').installHandover>} handover
 */

/**
 * @typedef {object} App
 * @property {import('./store.js').State} state
 * @property {() => void} render redraws once the current task is done
 * @property {ToastFn} toast
 * @property {Session | null} session while signed in
 * @property {ReturnType<typeof import('./edit-session.js').createEditSession>} edit the open page's edit session
 * @property {ReturnType<typeof import('./writes.js').createWrites>} writes saves and deletes with the page's fencing token
 * @property {ReturnType<typeof import('./configurator.js').createConfigurator>} configurator the open configurator
 * @property {ReturnType<typeof import('./navigation.js').createNavigation>} navigation the route and what it opens
 * @property {ReturnType<typeof import('./sign-in.js').createSignIn>} signIn signing in and out
 */

export {};
