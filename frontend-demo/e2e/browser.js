// Debian's Chromium, driven by playwright-core: one browser with a fresh profile per user.
// Never downloads a browser.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { REPO_ROOT } from './server.js';

const CHROMIUM = process.env.EDITLOCK_E2E_CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
export const SCREENSHOTS = path.join(REPO_ROOT, 'target', 'e2e-screenshots');
/** The pictures frontend-demo/README.md shows; refreshed by a run with EDITLOCK_E2E_README_SHOTS=1. */
export const README_SHOTS = path.join(REPO_ROOT, 'frontend-demo', 'screenshots');
let shotNumber = 0;

/** Saves a screenshot of the page as target/e2e-screenshots/NN-name.png. */
export async function screenshot(page, name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  shotNumber += 1;
  const file = path.join(SCREENSHOTS, `${String(shotNumber).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * A screenshot for the README: always kept with the others in target/e2e-screenshots, and written to
 * frontend-demo/screenshots/NAME.png when EDITLOCK_E2E_README_SHOTS=1.
 */
export async function readmeShot(page, name) {
  await animationsDone(page); // a toast that just appeared has finished sliding in
  const file = await screenshot(page, name);
  if (process.env.EDITLOCK_E2E_README_SHOTS === '1') {
    fs.mkdirSync(README_SHOTS, { recursive: true });
    fs.copyFileSync(file, path.join(README_SHOTS, `${name}.png`));
  }
  return file;
}

/** Waits until no animation that ends is running (the connection's pulsing dot never ends). */
export async function animationsDone(page) {
  await page.waitForFunction(() => document.getAnimations()
    .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity));
}

/** The user each watched page belongs to: a failed wait shows that user's frames. */
const owners = new WeakMap();

/**
 * Waits until the page shows `status`; on a timeout the error tells what the page showed instead, its
 * errors and the last frames of its user's sockets, with a screenshot, so a failure in CI explains itself.
 */
export async function waitForStatus(page, status, timeout = 10_000) {
  try {
    await page.locator(`[data-testid=page][data-status=${status}]`).waitFor({ timeout });
  } catch (error) {
    const shown = await page.evaluate(() => ({
      url: location.href,
      status: document.querySelector('[data-testid=page]')?.getAttribute('data-status') ?? null,
      connection: document.querySelector('[data-testid=connection]')?.textContent?.trim() ?? null,
      banner: document.querySelector('[data-testid=lock-banner]')?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
    })).catch(() => ({}));
    const user = owners.get(page);
    const last = (user?.frames ?? []).slice(-12)
      .map((f) => `${f.dir} ${f.event} ${JSON.stringify(f.data ?? null).slice(0, 160)}`);
    await screenshot(page, `${user?.name.toLowerCase() ?? 'page'}-not-${status}`).catch(() => {});
    throw new Error(`${user?.name ?? 'the'}'s page is not ${status} within ${timeout} ms; it shows ${JSON.stringify(shown)}; `
      + `errors ${JSON.stringify(user?.errors ?? [])}; last frames:\n  ${last.join('\n  ')}`, { cause: error });
  }
}

/** Removes the screenshots of an earlier run. */
export function clearScreenshots() {
  fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
}

/**
 * A person in their own browser (own profile, own cookies and storage).
 */
export class User {
  constructor(name, baseUrl) {
    this.name = name;
    this.baseUrl = baseUrl;
    /** every WebSocket frame of this user's pages: {at, dir: 'in'|'out', event, data} */
    this.frames = [];
    /** @type {Array<() => boolean>} */
    this.frameWaiters = [];
  }

  /**
   * Resolves once `count` frames pass `test` (counting those seen already), with those frames.
   * @param {(frame: {at: number, dir: string, event: string, data: any}) => boolean} test
   */
  framesArrived(test, { count = 1, timeout = 10_000, what = 'frames' } = {}) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const matching = this.frames.filter(test);
        if (matching.length < count) {
          return false;
        }
        clearTimeout(timer);
        resolve(matching);
        return true;
      };
      const timer = setTimeout(() => {
        this.frameWaiters = this.frameWaiters.filter((waiter) => waiter !== check);
        reject(new Error(`${what}: fewer than ${count} within ${timeout} ms`));
      }, timeout);
      if (!check()) {
        this.frameWaiters.push(check);
      }
    });
  }

  async launch() {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    }
    this.profile = fs.mkdtempSync(path.join(os.tmpdir(), `editlock-e2e-${this.name.toLowerCase()}-`));
    this.context = await chromium.launchPersistentContext(this.profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
    });
    this.page = this.context.pages()[0] || await this.context.newPage();
    this.watchPage(this.page);
    return this;
  }

  /** A new tab in the same browser: signed in already (the demo keeps its sign-in for the browser), with its own socket. */
  async newTab() {
    this.page = await this.context.newPage();
    this.watchPage(this.page);
    await this.page.goto(`${this.baseUrl}/`);
    await this.page.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor();
    return this.page;
  }

  watchPage(page) {
    owners.set(page, this);
    page.on('pageerror', (error) => {
      this.errors = this.errors || [];
      this.errors.push(error.message);
    });
    page.on('websocket', (socket) => {
      const record = (dir) => (frame) => {
        try {
          const { event, data } = JSON.parse(frame.payload);
          this.frames.push({ at: Date.now(), dir, event, data });
          this.frameWaiters = this.frameWaiters.filter((waiter) => !waiter());
        } catch {
          // not ours
        }
      };
      socket.on('framereceived', record('in'));
      socket.on('framesent', record('out'));
    });
  }

  async signIn() {
    await this.page.goto(`${this.baseUrl}/`);
    await this.page.fill('#signin-name', this.name);
    await this.page.click('button[type=submit]');
    await this.page.locator('[data-testid=connection]', { hasText: 'Live' }).waitFor();
  }

  async close() {
    if (this.context) {
      await this.context.close().catch(() => {});
    }
    if (this.profile) {
      fs.rmSync(this.profile, { recursive: true, force: true });
    }
  }
}
