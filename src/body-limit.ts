// A bound on what is read of an answer. A hostile or broken provider can send any amount: the body
// is counted while it streams and the read stops at the first chunk past the limit, so memory stays
// bounded by the limit whatever arrives (a declared Content-Length over it stops the read before
// the first chunk). Shared by the client, the token request and `verify`.

/** The default of `maxResponseBytes`: 10 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * An answer's body went past the byte limit: the read stopped, the rest was cancelled, nothing of it is
 * kept. The package's one "too large": thrown by the read here, passed on as it is by the transport's
 * attempt, read by failure.ts (the client's BaasResponseError with `limitBytes`, the token request's
 * BaasTokenError) and by verify, which names its own option in its report.
 */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
  constructor(
    readonly limitBytes: number,
    readonly status: number,
    readonly contentType: string | undefined,
  ) {
    super(`the response body (HTTP ${status}) is larger than the limit of ${shownBytes(limitBytes)}`);
  }
}

const BINARY_UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const DECIMAL_UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** `bytes` exactly, as parts of `base` (`9 GiB 320 MiB 761 KiB`), the largest unit first and parts of 0 left out. */
function partsOf(bytes: number, base: number, units: readonly string[]): string[] {
  const parts: string[] = [];
  let rest = bytes;
  for (let unit = units.length - 1; unit >= 0; unit -= 1) {
    const size = base ** unit;
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${count === 1 && unit === 0 ? 'byte' : units[unit]}`);
    rest -= count * size;
  }
  return parts;
}

/**
 * A size of ours (a limit, a count of bytes) as the package prints it: under 1024 as `N bytes` (`1 byte`),
 * else exactly, in binary units (`10 MiB`) or decimal ones (`10 GB`), whichever takes fewer parts
 * (`1 KiB 476 bytes`). Never as one long number: every line is masked where it is shown, and 11 digits
 * that only symbols join are read as a CPF (SECURITY.md), so `10000000000 bytes` would be shown
 * `*********00 bytes`. Here every number is a part of at most 4 digits with a unit's letters after it.
 */
export function shownBytes(bytes: number): string {
  if (bytes < 1024) return bytes === 0 ? '0 bytes' : partsOf(bytes, 1024, BINARY_UNITS).join(' ');
  const binary = partsOf(bytes, 1024, BINARY_UNITS);
  const decimal = partsOf(bytes, 1000, DECIMAL_UNITS);
  return (decimal.length < binary.length ? decimal : binary).join(' ');
}

const tooLarge = (response: Response, limitBytes: number): ResponseTooLarge =>
  new ResponseTooLarge(limitBytes, response.status, response.headers.get('content-type') ?? undefined);

/** Why `value` cannot be a byte limit, or undefined when it can. */
export function byteLimitProblem(value: unknown): string | undefined {
  // isSafeInteger is false for anything but a number, so no typeof test is needed.
  return Number.isSafeInteger(value) && (value as number) > 0 ? undefined : 'must be a positive whole number of bytes';
}

// The declared length, or 0 when there is none or it is not plain digits (a missing header reads as
// "null", which is no number): 0 never exceeds a limit, so the streamed count then decides alone.
const declaredLength = (response: Response): number => {
  const value = String(response.headers.get('content-length'));
  return /^[0-9]+$/.test(value) ? Number(value) : 0;
};

/**
 * The body's bytes, read chunk by chunk; rejects with ResponseTooLarge (and cancels the stream) as
 * soon as more than `limitBytes` have arrived, or at once when Content-Length already says so.
 */
export async function readBytesWithin(response: Response, limitBytes: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  if (declaredLength(response) > limitBytes) {
    await body.cancel().catch(() => undefined);
    throw tooLarge(response, limitBytes);
  }
  const bytes = await readStreamWithin(body, limitBytes);
  if (bytes === undefined) throw tooLarge(response, limitBytes);
  return bytes;
}

/**
 * A stream's bytes, read chunk by chunk: undefined (and the stream cancelled, the rest never read) as soon
 * as more than `limitBytes` have arrived. The one bounded read of a body, the answers the package reads
 * (readBytesWithin) and the requests the sandbox reads (src/sandbox/request.ts) alike; what a declared
 * length means is each caller's.
 */
export async function readStreamWithin(
  body: ReadableStream<Uint8Array>,
  limitBytes: number,
): Promise<Uint8Array | undefined> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  // Stryker disable next-line ConditionalExpression: speed only, a single chunk is the whole body already.
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The body as UTF-8 text (as `Response.text()` decodes it), read within `limitBytes`. */
export async function readTextWithin(response: Response, limitBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBytesWithin(response, limitBytes));
}
