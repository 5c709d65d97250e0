// tabs.js — the user's tabs in this browser agree on the pages they edit. A lock is the user's, and an
// unlock from any tab ends it for all (docs/protocol.md §2): a tab that leaves a page must not unlock it
// while another tab of the same user still edits it. Each tab editing a page holds a Web Lock named by
// the user, the page and the tab; a tab that leaves unlocks only when no other tab holds one for that
// page. A gate per page (a Web Lock too) keeps the two apart: a tab that opens the page while another
// leaves it is seen by the leaving one, or asks for the page's lock only once the unlock is answered. A
// tab that closes or crashes lets go of its names by itself. Without Web Locks (a page not served from a
// secure origin) every tab unlocks what it leaves, as a single tab does.

/** @param {string} userId */
export function createTabs(userId) {
  const locks = globalThis.navigator?.locks;
  const tab = Math.random().toString(36).slice(2);
  /** @type {Map<string, Promise<() => void>>} the pages this tab edits: each resolves, once seen, to letting go of it */
  const mine = new Map();
  /** @param {string} key the gate of the page `key`; the tabs' own names are it, a line break, and the tab */
  const gate = (key) => `editlock-page\n${userId}\n${key}`;

  return {
    /**
     * This tab edits the page `key` until it leaves it.
     * @param {string} key
     * @returns {Promise<void>} once the other tabs can see it (at once, if they could already)
     */
    async editing(key) {
      if (!locks) {
        return;
      }
      let held = mine.get(key);
      if (!held) {
        held = locks.request(gate(key), { mode: 'shared' }, () => new Promise((seen) => {
          locks.request(`${gate(key)}\n${tab}`, () => new Promise((release) => seen(() => release(undefined))));
        })).catch(() => () => {}); // Web Locks refused: the other tabs cannot see it, and the page is edited all the same
        mine.set(key, held);
      }
      await held;
    },

    /** This tab no longer edits the page `key`. @param {string} key */
    left(key) {
      const held = mine.get(key);
      mine.delete(key);
      held?.then((release) => release());
    },

    /**
     * Runs `unlock` unless a tab of the user (another, or this one again) edits the page `key`.
     * @param {string} key
     * @param {() => Promise<void>} unlock resolves once the unlock is answered
     * @returns {Promise<void>}
     */
    async unlockUnlessEdited(key, unlock) {
      if (!locks) {
        await unlock();
        return;
      }
      const unlocked = await locks.request(gate(key), { mode: 'exclusive' }, async () => {
        const { held = [] } = await locks.query();
        const others = held.some((lock) => lock.name?.startsWith(`${gate(key)}\n`) && lock.name !== `${gate(key)}\n${tab}`);
        if (others || mine.has(key)) {
          return true; // another tab edits it (or this one again): it stays
        }
        await unlock();
        return true;
      }).catch(() => false);
      if (!unlocked) {
        await unlock(); // Web Locks refused: unlock as a single tab does
      }
    },

    /** Signed out: this tab edits nothing any more. */
    close() {
      [...mine.keys()].forEach((key) => this.left(key));
    },
  };
}
