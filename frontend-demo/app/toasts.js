// toasts.js — short messages in the corner.

/**
 * @param {import('./context.js').App} app
 * @returns {import('./context.js').ToastFn}
 */
export function createToasts(app) {
  const { state } = app;
  /**
   * A short message in the corner. kind: 'info', 'success' or 'error'; action: {label, run} shows a
   * button (e.g. Undo) that also closes it.
   * @returns {() => void} closes it
   */
  return function toast(text, kind = 'info', { action = null, ms = kind === 'error' ? 8000 : 3500 } = {}) {
    const entry = { id: Math.random(), text, kind, action, createdAt: Date.now() };
    const dismiss = () => {
      state.toasts = state.toasts.filter((t) => t !== entry);
      app.render();
    };
    if (action) {
      entry.action = { label: action.label, run: () => { dismiss(); action.run(); } };
    }
    if (kind === 'success') {
      state.toasts = state.toasts.filter((t) => t.kind !== 'success'); // one "Saved." says it for every save
    }
    state.toasts.push(entry);
    app.render();
    setTimeout(dismiss, ms);
    return dismiss;
  };
}
