// The Chromium lookup never skips: it finds one, or fails saying how to install one.
import { afterEach, describe, expect, it } from 'vitest';
import { ensureChromium, findChromium } from '../../scripts/lib/chromium.mjs';

const saved = process.env.CHROMIUM_PATH;
afterEach(() => {
  if (saved === undefined) delete process.env.CHROMIUM_PATH;
  else process.env.CHROMIUM_PATH = saved;
});

describe('ensureChromium', () => {
  it('uses CHROMIUM_PATH first', async () => {
    const found = findChromium();
    expect(found, 'the docs test has no Chromium either').toBeDefined();
    process.env.CHROMIUM_PATH = found!;
    await expect(ensureChromium({ candidates: [] })).resolves.toBe(found);
  });

  it('refuses a CHROMIUM_PATH that is not an executable, saying how to install one', async () => {
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    await expect(ensureChromium()).rejects.toThrow(
      /CHROMIUM_PATH=\/nonexistent\/chromium is not an executable file\. .*apt-get install -y chromium/,
    );
  });

  it('fails, saying how to install one, when none is found and it may not install', async () => {
    delete process.env.CHROMIUM_PATH;
    await expect(ensureChromium({ candidates: ['/nonexistent/chromium'], allowInstall: false })).rejects.toThrow(
      'The docs test needs Chromium. Install it (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set CHROMIUM_PATH',
    );
  });
});
