// verify --allow-writes: the one update it sends goes through the client's own pre-flight rule
// (preflightUpdate, src/validation/), so an update the contract refuses is a usage error before
// anything is sent, and what is sent is what the client would send. The answer is then read as a
// write: a refusal (4xx, 5xx) is never OK, whatever its shape.
import type { Secrets } from '../redact.js';
import { UsageError } from '../usage-error.js';
import { preflightUpdate, type ValidationIssue } from '../validation/index.js';
import type { WriteOptions } from './options.js';

/** The update as it is sent: its query parameters and its body (the request builder writes it as JSON). */
export interface CheckedWrite {
  query: { Account: string; DocumentNumber: string };
  body: unknown;
}

// The flag each query parameter of the update comes from.
const QUERY_FLAGS: Readonly<Record<string, string>> = { Account: '--account', DocumentNumber: '--document-number' };

/** Where an issue's value came from: a query parameter's flag, or a field of --body's file. */
function flagOf(issue: ValidationIssue): string {
  if (Object.hasOwn(QUERY_FLAGS, issue.path)) return QUERY_FLAGS[issue.path]!;
  return issue.path === '' ? '--body' : `--body at ${issue.path}`;
}

const bodyField = (issue: ValidationIssue): boolean => issue.path.startsWith('/');

/**
 * The write verify sends, checked by the client's pre-flight rule; a UsageError naming each flag and
 * rule (never a value) when the contract refuses it. `bodyText` is --body's file, already read.
 */
export function checkedWrite(write: WriteOptions, bodyText: string): CheckedWrite {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    // JSON.parse's words quote the text, which may hold a CPF: only the rule.
    throw new UsageError('--body is not valid JSON; give the JSON file of the update body');
  }
  const { query, body, issues } = preflightUpdate(
    { Account: write.account, DocumentNumber: write.documentNumber },
    parsed,
  );
  if (issues.length > 0) {
    // A body field is named by its flag and pointer already (`--body at /email`): its rule alone follows.
    const lines = issues.map((issue) => `  ${flagOf(issue)}: ${bodyField(issue) ? issue.rule : issue.message}`);
    throw new UsageError(
      [
        `--allow-writes: the update breaks the contract, so nothing was sent (the client refuses it the same way):`,
        ...lines,
        'Fix these and run verify again; `baas-pix-contract docs` shows every field and its rule.',
      ].join('\n'),
    );
  }
  return { query, body };
}

// A problem's title or detail is the provider's text: shown bounded, and masked where it is printed.
const MAX_REFUSAL_TEXT = 200;

/**
 * Why the provider refused the write, from its problem details (RFC 9457) or the upstream envelope
 * (`{ status: "ERROR", error: { code, message } }`): `title: detail` or `code: message`, each piece
 * bounded; undefined when the body says nothing readable.
 */
export function refusalText(body: unknown, secrets: Secrets): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  const envelope =
    record.error !== null && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : undefined;
  const pieces = envelope ? [envelope.code, envelope.message] : [record.title, record.detail];
  const text = pieces
    .filter((piece): piece is string => typeof piece === 'string' && piece.trim() !== '')
    .map((piece) => secrets.bounded(piece, MAX_REFUSAL_TEXT))
    .join(': ');
  return text === '' ? undefined : text;
}
