// What a failed attempt means, read in one place for every part that sends: the caller gave up, the
// attempt's timer ran out, the body went past the byte limit, or the network failed (with the system
// code and, for TLS, the reason). `clientError` turns it into the client's errors (src/errors.ts); the
// token request and verify turn the same reading into a BaasTokenError and a report row.
import {
  BaasNetworkError,
  BaasResponseError,
  BaasTimeoutError,
  BaasValidationError,
  type BaasError,
  type ErrorContext,
} from '../errors.js';
import { ResponseTooLarge, shownBytes } from '../body-limit.js';
import { HeaderRefused, headerRule, type Attempt } from './attempt.js';

export type TransportFailure =
  /** The caller's signal aborted: `reason` is what it aborted with, and what the caller sees. */
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'timeout'; timeoutMs: number }
  /** A header fetch refused to send (nothing was sent): the caller's input, named, never its value. */
  | { kind: 'header'; header: string; part: 'name' | 'value'; message: string }
  | { kind: 'too-large'; limitBytes: number; status: number; contentType: string | undefined }
  | {
      kind: 'network';
      /** The system error code (ECONNRESET, …), when there is one. */
      code: string | undefined;
      /** What failed, in words, when the failure names itself (a TLS failure). */
      reason: string | undefined;
      /** The whole cause chain as text (messages and codes): not redacted, the caller masks it. */
      message: string;
    };

/**
 * Reads what `error` means, thrown while `attempt` (the last one, if any) lived or after it; `caller`
 * is the caller's signal, which may have aborted between attempts too.
 */
export function failureOf(error: unknown, attempt: Attempt | undefined, caller?: AbortSignal): TransportFailure {
  if (error instanceof ResponseTooLarge)
    return { kind: 'too-large', limitBytes: error.limitBytes, status: error.status, contentType: error.contentType };
  if (caller?.aborted) return { kind: 'aborted', reason: caller.reason };
  if (attempt?.timedOut) return { kind: 'timeout', timeoutMs: attempt.timeoutMs };
  if (error instanceof HeaderRefused)
    return { kind: 'header', header: error.header, part: error.part, message: error.message };
  return { kind: 'network', code: systemCode(error), reason: failureReason(error), message: describeCause(error) };
}

/** The client's error for a failure (a caller's abort keeps its own reason). */
export function clientError(failure: TransportFailure, context: ErrorContext): BaasError | unknown {
  switch (failure.kind) {
    case 'aborted':
      return failure.reason;
    case 'timeout':
      return new BaasTimeoutError(failure.timeoutMs, context);
    case 'too-large':
      return new BaasResponseError(
        `the response body is larger than maxResponseBytes (${shownBytes(failure.limitBytes)})`,
        { status: failure.status, contentType: failure.contentType, limitBytes: failure.limitBytes },
        context,
      );
    case 'header': {
      // An issue as src/validation/issues.ts makes one: the field, then its rule (never the value).
      const rule = headerRule(failure.part);
      return new BaasValidationError(
        [{ path: failure.header, rule, message: `header ${failure.header} ${rule}` }],
        context,
      );
    }
    case 'network':
      return new BaasNetworkError(failure.code, context, failure.reason);
  }
}

/** The system error code (ECONNRESET, …) somewhere in an error's cause chain. */
export function systemCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// A port the Fetch standard blocks (6000, 6665-6669, 5060, …): fetch refuses it before connecting, with a
// cause that says only "bad port" and no system code. A sandbox serves on it happily, so a newcomer who
// picked one would otherwise read a bare "network failure".
const BLOCKED_PORT = 'bad port';
export const BLOCKED_PORT_REASON =
  'a port that fetch never calls (the Fetch standard blocks it); serve the service on another port';

/** What a failure says in words when it names itself (a TLS failure: `reason` beside its `code`). */
function failureReason(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, reason } = current as { code?: unknown; reason?: unknown };
    if (typeof code === 'string' && typeof reason === 'string') return reason;
    if (current instanceof Error && current.message === BLOCKED_PORT && typeof code !== 'string')
      return BLOCKED_PORT_REASON;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The cause chain as one text: each message, with its code when the message does not name it. A failure
 * that names itself (its `code` beside its `reason`, as failureReason reads it: a TLS failure) ends the
 * text: its message already says what its causes say, and the reason is said once.
 */
function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const { code, reason } = current as { code?: unknown; reason?: unknown };
    const message = current instanceof Error ? current.message : String(current);
    parts.push(typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message);
    if (typeof code === 'string' && typeof reason === 'string') break;
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}

/**
 * What a failure says of itself when another attempt of the same request cannot end otherwise: why, in a
 * few words (`option ERR_TLS_OPTION`). The transport never guesses it from codes or messages: the part that
 * knows says it (src/tls/failure.ts, by the kind of a TLS failure; HeaderRefused, for a header fetch refuses).
 */
export interface Incurable {
  readonly incurable: string;
}

/**
 * Why another attempt of the same request cannot end otherwise, or undefined when it may: the rule the one
 * retry loop reads (src/transport/pipeline.ts) before any retry decision. Another attempt sends the same
 * headers and presents the same `tls`, so a failure that says it is `incurable` (anywhere in its cause chain)
 * ends the request: a header fetch refused (the caller's input; nothing was sent), a TLS failure of a
 * permanent kind (the option, a certificate, the negotiation); and a port fetch blocks, which fetch
 * refuses before connecting, every time. Everything else (a reset, a refused
 * connection, DNS, a timeout, a status) is the retry rule's to weigh.
 */
export function incurable(error: unknown): string | undefined {
  // A primitive in the chain has no `incurable` of its own and no cause: reading it ends the walk.
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const { incurable: why, code } = current as Partial<Incurable> & { code?: unknown };
    if (typeof why === 'string' && why) return why;
    // fetch refuses a blocked port before connecting, every time (the Fetch standard's list does not change).
    if (current instanceof Error && current.message === BLOCKED_PORT && typeof code !== 'string') return 'blocked port';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
