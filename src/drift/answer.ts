// The client's side of `validateResponses`, loaded by dynamic import on the first answer checked
// (src/client/answer-check.ts), so that clients that leave it off load none of it. Checks one
// answer of a typed operation and either throws (`'throw'`) or reports (`'warn'`).
//
// It imports nothing the client entry has: the error class and the rule wording come in `kit`, so a
// splitting bundler makes one lazy chunk and no chunk shared with the entry.
import type { Call, ClientState } from '../client/call.js';
import type { ResponseError } from '../errors.js';
import type { redactJson } from '../redact.js';
import { checkResponse, isJsonMediaType, mediaTypeOf, type RuleWords } from './check.js';
import { describeProblems, type DriftEvent } from './problems.js';

/** The body when the check had to parse it (JSON of a JSON media type), so the reader need not parse it again. */
export type Parsed = { body: unknown } | undefined;

/** What the client entry hands over: the same error class its callers catch, and its rule wording. */
export interface Kit {
  ResponseError: typeof ResponseError;
  ruleOf: RuleWords;
  onDrift: ((event: DriftEvent) => void) | undefined;
  state: Pick<ClientState, 'observer'>;
  /** Masks the event before anyone hears it: a pointer names a member of the answer, which a provider may name by a CPF. */
  redact: typeof redactJson;
}

let contract: Promise<typeof import('../generated/response-validators.js')> | undefined;

export async function checkAnswer(mode: 'warn' | 'throw', kit: Kit, response: Response, text: string, call: Call): Promise<Parsed> {
  const { responseContract } = await (contract ??= import('../generated/response-validators.js'));
  const contentType = response.headers.get('content-type');
  let parsed: Parsed;
  let bodyUnparsable = false;
  if (text.trim() !== '' && isJsonMediaType(mediaTypeOf(contentType))) {
    try {
      parsed = { body: JSON.parse(text) as unknown };
    } catch {
      bodyUnparsable = true;
    }
  }
  const context = call.context();
  const operationId = context.operation!;
  const body = parsed ? parsed.body : text === '' ? undefined : text;
  const problems = checkResponse(responseContract, kit.ruleOf, { operationId, status: response.status, headers: response.headers, contentType, body, bodyUnparsable });
  if (problems.length === 0) return parsed;
  const event: DriftEvent = kit.redact(
    { type: 'drift', operationId, status: response.status, problems, method: context.method, url: context.url, requestId: context.requestId },
    call.secrets,
  );
  if (mode === 'throw') {
    // No body snippet: the values are what must not leak; pointers and rules say what is wrong.
    throw new kit.ResponseError(`the answer drifted from the contract: ${describeProblems(problems)}`, { status: response.status, contentType: contentType ?? undefined, problems }, context);
  }
  // To the client's logs and events (issue 12 wires its logger and `client.on` through the observer).
  kit.state.observer?.drift?.(event);
  try {
    kit.onDrift?.(event);
  } catch {
    // A listener's failure is not the call's.
  }
  return parsed;
}
