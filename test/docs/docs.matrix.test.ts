// The rendered docs in a real headless Chromium, offline: opened from disk, no request leaves the
// page, no console error; both operations, the named schemas, the examples, every error response
// and every assumption visible. Screenshots go to .artifacts/ (git-ignored) for a person to look at.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectAssumptions } from '../../src/cli/assumptions.js';
import { redoclyCli } from '../../src/cli/docs.js';
import { operationNames, operations, type OperationName } from '../../src/generated/operations.js';
import { buildDocs, DOCS_TITLE } from '../../src/cli/docs-page.js';
import { CHROMIUM_FLAGS, ensureChromium } from '../../scripts/lib/chromium.mjs';
import { repoRoot } from '../../scripts/lib/paths.mjs';
import { ensureTool } from '../../scripts/lib/tools.mjs';
import { deref, spec } from '../support/spec.js';

const ARTIFACTS = join(repoRoot, '.artifacts');
// Markdown as Redoc shows it: no backticks, single spaces.
const plain = (markdown: string) => markdown.replace(/`/g, '').replace(/\s+/g, ' ').trim();

// Every operation of the spec, from the generated table: Redoc's route (its first tag and the
// operationId, lower-cased), the path and the method. Only the screenshot each takes is written here,
// one per operation (a new operation without one is a type error).
const SHOTS: Record<OperationName, { shotStatus: string; shot: string }> = {
  updateNaturalPerson: { shotStatus: '422', shot: 'docs-update' },
  listPixKeys: { shotStatus: '429', shot: 'docs-list' },
};
const OPERATIONS = operationNames.map((name) => {
  const { path } = operations[name];
  const method = operations[name].method.toLowerCase();
  const tag = (spec.paths[path]![method].tags as string[])[0]!;
  return { hash: `#/${tag.toLowerCase()}/${name.toLowerCase()}`, path, method, ...SHOTS[name] };
});
const summaryOf = (path: string, method: string) => spec.paths[path]![method].summary as string;

let executablePath: string;
let browser: Browser | undefined;
let dir: string;
const outside: string[] = [];
const consoleErrors: string[] = [];
const errorResponsesNotShown: string[] = [];
let text = '';
let title = '';

/** Opens each documented error response and records those whose description does not appear. */
async function visitErrorResponses(tab: Page, path: string, method: string): Promise<void> {
  const responses = spec.paths[path]![method].responses as Record<string, unknown>;
  const tabs = tab.getByRole('tablist', { name: 'Response status' }).first();
  for (const status of Object.keys(responses).filter((code) => Number(code) >= 400)) {
    const description = plain(deref<{ description: string }>(responses[status]).description);
    // Matched on the text before the first code span, which Redoc puts in its own element.
    const shown = tab.getByText(description.split('`')[0]!.split('. ')[0]!).filter({ visible: true }).first();
    const ok = await tabs
      .getByRole('tab', { name: status, exact: true })
      .click({ timeout: 5_000 })
      .then(() => shown.waitFor({ state: 'visible', timeout: 5_000 }))
      .then(
        () => true,
        () => false,
      );
    if (!ok) errorResponsesNotShown.push(`${method.toUpperCase()} ${path} ${status}: "${description}"`);
  }
}

// Finding (or installing) Chromium can take minutes on a fresh machine: a hook of its own.
// Playwright drives Chromium; it is a tool of the tool cache (tools/playwright-core), not a devDependency,
// so its types are not in the repository: Browser and Page are its own objects, untyped here.
type Browser = any;
type Page = any;
let chromium: { launch(options: object): Promise<Browser> };

beforeAll(async () => {
  const modules = await ensureTool('playwright-core');
  const entry = createRequire(join(modules, 'package.json')).resolve('playwright-core');
  ({ chromium } = (await import(pathToFileURL(entry).href)) as { chromium: typeof chromium });
  executablePath = await ensureChromium();
}, 10 * 60_000);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baas-docs-test-'));
  const page = pathToFileURL(join(dir, 'index.html')).href;
  await buildDocs(join(dir, 'index.html'), {
    specJson: join(repoRoot, 'src/generated/openapi.json'),
    redoclyCli: redoclyCli(),
  });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
  // Offline, as someone reading the file with no network; anything but the file itself and inline
  // data is a request leaving the page: recorded (route and request event both) and blocked.
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
    offline: true,
    serviceWorkers: 'block',
  });
  const local = (url: string) => /^(file|data|blob|about):/.test(url);
  context.on('request', (request: any) => {
    if (!local(request.url())) outside.push(request.url());
  });
  await context.route('**/*', (route: any) => (local(route.request().url()) ? route.continue() : route.abort()));
  // Fake timers that still run in real time, so the end of the visit can jump a minute ahead and
  // flush anything batched on a timer (Redoc's telemetry exporter waits a few seconds).
  await context.clock.install();
  const tab = await context.newPage();
  tab.on('console', (message: any) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  tab.on('pageerror', (error: Error) => consoleErrors.push(error.message));

  await tab.goto(page, { waitUntil: 'load' });
  await tab.locator('h1').first().waitFor({ timeout: 20_000 });
  title = await tab.title();
  text = await tab.locator('body').innerText();
  await mkdir(ARTIFACTS, { recursive: true });
  await tab.screenshot({ path: join(ARTIFACTS, 'docs-intro.png') });

  // Redoc renders an operation when its route (the menu entry's hash) is opened.
  for (const operation of OPERATIONS) {
    await tab.goto(page + operation.hash);
    await tab
      .getByRole('heading', { name: summaryOf(operation.path, operation.method) })
      .first()
      .waitFor({ timeout: 20_000 });
    text += `\n${await tab.locator('body').innerText()}`;
    await visitErrorResponses(tab, operation.path, operation.method);
    // Screenshots with an error response open (e.g. 422 and its violations): the whole page, and
    // the responses at a readable size.
    const tablist = tab.getByRole('tablist', { name: 'Response status' }).first();
    await tablist.getByRole('tab', { name: operation.shotStatus, exact: true }).click();
    text += `\n${await tab.locator('body').innerText()}`;
    await tab.screenshot({ path: join(ARTIFACTS, `${operation.shot}.png`), fullPage: true });
    await tablist.evaluate((element: any) => element.scrollIntoView({ block: 'start' }));
    await tab.screenshot({ path: join(ARTIFACTS, `${operation.shot}-${operation.shotStatus}.png`) });
  }
  await tab.clock.runFor(60_000);
  // Leaving the page is when beacons go out.
  await tab.close({ runBeforeUnload: true });
  await new Promise((resolve) => setTimeout(resolve, 500));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('docs page', () => {
  it('says what the API is: its title and an intro naming both operations', () => {
    expect(title).toBe(DOCS_TITLE);
    expect(DOCS_TITLE).toBe(spec.info.title);
    expect(text).toContain(plain((spec.info as { summary?: string }).summary ?? 'no info.summary'));
    expect(text).toContain('Contract for a Brazilian banking-as-a-service API');
  });

  it('renders both operations with their method and path', () => {
    for (const { path, method } of OPERATIONS) {
      expect(text).toContain(summaryOf(path, method));
      expect(text).toMatch(new RegExp(`${method.toUpperCase()}\\s+${path}`));
    }
  });

  it('names the key schemas, and the schemas nested in the bodies', () => {
    for (const name of ['NaturalPersonUpdate', 'UpdateResult', 'PixKeyList', 'PixKey', 'Problem'])
      expect(text).toContain(name);
    // Redoc writes a referenced schema's name under its field.
    for (const name of ['(Address)', '(PhoneNumber)', '(Cursor)', '(PixKey)', '(Violation)'])
      expect(text).toContain(name);
    for (const field of ['phoneNumber', 'isPoliticallyExposedPerson', 'postalCode', 'cursor', 'data'])
      expect(text).toContain(field);
  });

  it('renders the examples, by summary and by value', () => {
    const examples = spec.components.examples!;
    // Redoc shows the first example of each media type: CompletePage is the list's default.
    for (const name of ['FullUpdate', 'CompletePage']) expect(text).toContain(examples[name].summary);
    expect(text).toContain('"+5511987654321"');
    expect(text).toContain('"SUCCESS"');
  });

  it('renders every documented error response of both operations with its description', () => {
    expect(errorResponsesNotShown).toEqual([]);
  });

  it('lists every assumption of the spec', () => {
    expect(text).toContain('Every assumption');
    const assumptions = collectAssumptions(spec) as { notShown: string }[];
    expect(assumptions.length).toBeGreaterThan(10);
    const shown = text.replace(/\s+/g, ' ');
    expect(assumptions.map((a) => plain(a.notShown)).filter((notShown) => !shown.includes(notShown))).toEqual([]);
  });

  it('makes no request outside the page and logs no console error', () => {
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
