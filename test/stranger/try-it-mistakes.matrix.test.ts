// A stranger's slip in the try-it panel (the sandbox's /docs, in Chromium): a line of "More header fields"
// that is not "Name: value" was dropped without a word and the call sent anyway, so the answer looked like
// the one asked for. It is refused, named by its line number; the line itself (it may hold a token) is not shown.
// A line naming a field the browser sets itself (Host, Origin, Content-Length: a forbidden request-header name)
// was dropped by the browser without a word too: it is refused, the field named. And a Send once the sandbox
// was stopped said "not sent: Failed to fetch": it says there was no answer, and what to do.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, ensureChromium } from '../../scripts/lib/chromium.mjs';
import { ensureTool } from '../../scripts/lib/tools.mjs';
import { type CliProcess, startCli } from '../docs/cli-process.js';

// Playwright is a tool of the tool cache, not a devDependency: its objects are untyped here.
let browser: any;
let sandbox: CliProcess | undefined;
let tab: any;
const sent: string[] = [];

beforeAll(async () => {
  const modules = await ensureTool('playwright-core');
  const entry = createRequire(join(modules, 'package.json')).resolve('playwright-core');
  const { chromium } = (await import(pathToFileURL(entry).href)) as { chromium: any };
  browser = await chromium.launch({ executablePath: await ensureChromium(), args: CHROMIUM_FLAGS });
  sandbox = startCli(['sandbox', '--port', '0']);
  const [, url] = await sandbox.waitFor(/^Sandbox listening on (http:\/\/127\.0\.0\.1:[0-9]+)/);
  tab = await browser.newPage();
  tab.on('request', (request: any) => sent.push(request.url()));
  await tab.goto(`${url}/docs#/pixkeys/listpixkeys`, { timeout: 120_000 });
  await tab.getByRole('button', { name: 'Try it', exact: true }).click();
}, 10 * 60_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

async function sendWith(more: string): Promise<string> {
  const form = tab.getByRole('complementary', { name: 'Try it' }).locator('form[data-operation="listPixKeys"]');
  await form.locator('textarea[name="more-headers"]').fill(more);
  sent.length = 0;
  await form.getByRole('button', { name: 'Send' }).click();
  // The Send button is disabled while a call is out, and enabled again once its outcome is shown.
  await form.getByRole('button', { name: 'Send' }).and(tab.locator(':enabled')).waitFor({ timeout: 60_000 });
  return (await form.getByLabel('Status').textContent()) ?? '';
}

it('refuses a line that is not "Name: value", naming its line, and sends nothing', async () => {
  const status = await sendWith('Prefer: code=429\nAuthorization Bearer sbx_never_shown');
  expect(status).toBe('not sent: line 2 of More header fields is not "Name: value", e.g. Prefer: code=204');
  expect(sent.filter((url) => url.includes('/list-keys'))).toEqual([]);
  expect(await tab.locator('body').innerText()).not.toContain('sbx_never_shown');
});

it('still sends well-formed lines, blank lines between them allowed', async () => {
  expect(await sendWith('\nPrefer: code=429\n\n')).toMatch(/^429\b/);
});

it.each(['Host', 'origin', 'Content-Length', 'Sec-Fetch-Site'])(
  'refuses a line naming %s, a field the browser sets itself, and sends nothing',
  async (name) => {
    const status = await sendWith(`Prefer: code=429\n${name}: evil.example`);
    expect(status).toBe(
      `not sent: line 2 of More header fields: ${name} is set by the browser and the HTTP connection, not by the page (a forbidden request-header name of the Fetch standard): remove it and press Send again`,
    );
    expect(sent.filter((url) => url.includes('/list-keys'))).toEqual([]);
  },
);

// Last: it stops the sandbox.
it('a Send once the sandbox is stopped says no answer came, and what to do', async () => {
  await sandbox!.stop();
  expect(await sendWith('')).toBe(
    'no answer: Failed to fetch (is the sandbox still running? Start it again and reload this page)',
  );
});
