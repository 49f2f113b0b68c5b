// `export-keys`: every PIX key into a file, page after page. With a journal, each page is written
// and synced first, then journaled with the file's length and the next page's cursor; a rerun cuts
// the file back to the last journaled length and goes on from that cursor, so every key is in the
// file exactly once however the run before ended.
import { type FileHandle, open, truncate } from 'node:fs/promises';
import { createBaasClient } from '../../client/baas-client.js';
import { redactText } from '../../redact.js';
import { MAX_PAGE_SIZE } from '../../verify/options.js';
import { UsageError } from '../command.js';
import type { ExportKeysValues } from '../export-keys.js';
import { type JournalEntry, JournalWriter, readJournal } from './journal.js';
import { csvHeader, keyRows, outputFormatOf } from './key-rows.js';
import { connectionFrom, paceFrom } from './options.js';
import { Progress } from './progress.js';
import { ReportWriter } from './report.js';
import { exportKeyPages } from '../../batch/export-keys.js';
import { EXIT_ON, Stopper } from './stop.js';
import type { RunIo } from './update-many-run.js';

/** One journal line of export-keys: the page written, the file's length after it, where to go on. */
export interface ExportJournalEntry {
  page: number;
  keys: number;
  bytes: number;
  /** The cursor of the page after it; null once the last page is written. */
  nextCursor: string | null;
}

const isPageEntry = (entry: JournalEntry): entry is JournalEntry & ExportJournalEntry =>
  Number.isSafeInteger(entry.page) &&
  Number.isSafeInteger(entry.keys) &&
  Number.isSafeInteger(entry.bytes) &&
  (entry.nextCursor === null || typeof entry.nextCursor === 'string');

export const DEFAULT_PAGE_SIZE = MAX_PAGE_SIZE;

export async function runExportKeys(values: ExportKeysValues, io: RunIo): Promise<number> {
  const out = values.out;
  if (!out) throw new UsageError('--out FILE is required');
  const pageSize = pageSizeFrom(values['page-size']);
  const { rate } = paceFrom(values);
  const connection = connectionFrom(values, io.env);
  const { credentials } = connection;
  const format = outputFormatOf(out);
  let stopper: Stopper | undefined;
  let file: FileHandle | undefined;
  let journal: JournalWriter | undefined;
  const client = createBaasClient({
    baseUrl: connection.baseUrl,
    token: Object.assign(async () => ((await credentials.authorization()) ?? '').replace(/^Bearer /, ''), {
      secrets: () => [...credentials.secrets],
    }),
    ...(credentials.fetch ? { fetch: credentials.fetch } : {}),
    ...(connection.insecureHttp ? { allowInsecureHttp: true } : {}),
  });
  try {
    let last: ExportJournalEntry | undefined;
    if (values.journal) {
      const read = await readJournal(values.journal, 'export-keys', (entry) => {
        if (isPageEntry(entry)) last = entry;
      });
      journal = await JournalWriter.open(values.journal, 'export-keys', read, { batchSize: 1 });
    }
    if (last?.nextCursor === null) {
      await truncate(out, last.bytes);
      io.out(`Done before: ${last.keys} keys in ${out} (the journal says the last page is written)`);
      return 0;
    }
    // Resuming: what follows the last journaled page was never journaled, so it goes (it is fetched again).
    if (last) await truncate(out, last.bytes);
    file = await open(out, last ? 'a' : 'w');
    let bytes = last?.bytes ?? 0;
    let keys = last?.keys ?? 0;
    let page = last?.page ?? 0;
    if (!last && format === 'csv') {
      const header = csvHeader();
      await file.write(header);
      bytes += Buffer.byteLength(header);
    }
    const report = values.report
      ? await ReportWriter.open(values.report, {
          command: 'export-keys',
          out,
          baseUrl: redactText(connection.baseUrl, credentials.secrets),
          credentials: credentials.kind,
          rate: rate ?? null,
          journal: values.journal ?? null,
        })
      : undefined;
    const started = performance.now();
    let requests = 0;
    client.on('request', () => {
      requests += 1;
    });
    let keysNow = 0;
    const progress = new Progress(io.progress, () => ({ done: keysNow, failed: 0, total: undefined }));
    const activeStopper = new Stopper(
      () => io.err('stopping after the page being fetched (Ctrl-C again to give it up)'),
      (signal) => {
        // Given up: the page in flight is not written; the journal already holds every page that was.
        progress.stop();
        void journal?.close().finally(() => process.exit(EXIT_ON[signal]));
      },
    );
    stopper = activeStopper;
    let complete = false;
    let fault: unknown;
    try {
      for await (const result of exportKeyPages(client, {
        ...(last?.nextCursor ? { after: last.nextCursor } : {}),
        limit: pageSize,
        ...(rate !== undefined ? { rate } : {}),
        signal: activeStopper.soft.signal,
      })) {
        const text = keyRows(result.keys, format);
        await file.write(text);
        await file.datasync();
        bytes += Buffer.byteLength(text);
        keys += result.keys.length;
        keysNow += result.keys.length;
        page += 1;
        const entry: ExportJournalEntry = { page, keys, bytes, nextCursor: result.nextCursor ?? null };
        journal?.append({ ...entry });
        await journal?.flush();
        report?.line({ page, keys: result.keys.length });
        if (entry.nextCursor === null) complete = true;
        if (activeStopper.stopping) break;
      }
      complete ||= !activeStopper.stopping;
    } catch (error) {
      fault = error;
    } finally {
      progress.stop();
    }
    const elapsed = (performance.now() - started) / 1000;
    const summary = {
      complete,
      pages: page,
      keys,
      keysThisRun: keysNow,
      elapsedSeconds: Math.round(elapsed * 10) / 10,
      requests,
      requestsPerSecond: elapsed > 0 ? Math.round((requests / elapsed) * 10) / 10 : 0,
      interrupted: activeStopper.stopping,
    };
    await report?.finish(summary);
    io.out(`${complete ? 'Done' : 'Stopped'}: ${keys} keys in ${out} (${keysNow} this run, ${page} pages)`);
    io.out(`  elapsed   ${summary.elapsedSeconds} s`);
    io.out(`  requests  ${requests} (${summary.requestsPerSecond} per second, retries included)`);
    if (fault !== undefined) {
      io.err(redactText(`export-keys: ${fault instanceof Error ? fault.message : String(fault)}`, credentials.secrets));
      if (values.journal) io.err(`export-keys: run the same command again to go on from page ${page + 1}`);
      return 1;
    }
    if (activeStopper.signal && !complete) return EXIT_ON[activeStopper.signal];
    return 0;
  } finally {
    stopper?.release();
    await file?.close();
    await journal?.close();
    await client.close();
    await credentials.close();
  }
}

function pageSizeFrom(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > DEFAULT_PAGE_SIZE)
    throw new UsageError(`--page-size must be a whole number from 1 to ${DEFAULT_PAGE_SIZE}, got "${raw}"`);
  return Number(raw);
}
