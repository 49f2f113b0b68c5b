// The rendered docs in a real headless Chromium: opened from disk, no request leaves the page,
// no console error, both operations, the key schemas, the errors and the assumptions visible.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocs, DOCS_TITLE } from '../../scripts/lib/docs.mjs';
import { CHROMIUM_FLAGS, chromiumPath } from '../../scripts/lib/chromium.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';

let browser: Browser | undefined;
let dir: string;
const outside: string[] = [];
const consoleErrors: string[] = [];
let text = '';
let title = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baas-docs-test-'));
  const page = join(dir, 'index.html');
  await buildDocs(page);
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // Anything but the file itself and inline data is a request leaving the page: record and block it.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(file|data|blob|about):/.test(url)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  const tab = await context.newPage();
  tab.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  tab.on('pageerror', (error) => consoleErrors.push(error.message));
  await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });
  await tab.locator('h1').first().waitFor({ timeout: 20_000 });
  title = await tab.title();
  text = await tab.locator('body').innerText();
  await mkdir(join(repoRoot, '.artifacts'), { recursive: true });
  await tab.screenshot({ path: join(repoRoot, '.artifacts', 'docs-intro.png') });
  // Redoc renders an operation when it is opened (its menu entry sets this hash).
  for (const [hash, operation, shot] of [
    ['#/customers/updatenaturalperson', 'Update natural-person customer data', 'docs-update.png'],
    ['#/pixkeys/listpixkeys', 'List PIX keys of the calling account', 'docs-list.png'],
  ] as const) {
    await tab.goto(pathToFileURL(page).href + hash);
    await tab.getByRole('heading', { name: operation }).first().waitFor({ timeout: 20_000 });
    text += '\n' + (await tab.locator('body').innerText());
    await tab.screenshot({ path: join(repoRoot, '.artifacts', shot), fullPage: true });
  }
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('docs page', () => {
  it('says what the API is', () => {
    expect(title).toBe(DOCS_TITLE);
    expect(text).toContain('Update a natural-person customer');
  });

  it('renders both operations', () => {
    expect(text).toContain('Update natural-person customer data');
    expect(text).toContain('List PIX keys of the calling account');
    expect(text).toContain('/v2/api/baas-onboarding/account/natural-person');
    expect(text).toContain('/v2/api/pix/keys/list-keys');
  });

  it('renders the key schemas, examples and error responses', () => {
    for (const field of ['phoneNumber', 'isPoliticallyExposedPerson', 'postalCode', 'beneficiary_account', 'beneficiary_entity', 'key_type']) {
      expect(text).toContain(field);
    }
    for (const status of ['401', '422', '429', '503']) expect(text).toContain(status);
    // Examples are listed by their summaries.
    expect(text).toContain('Every field');
  });

  it('lists the assumptions', () => {
    expect(text).toContain('Every assumption');
    expect(text).toContain('Body and status codes of the update response.');
  });

  it('makes no request outside the page and logs no console error', () => {
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
