// The client's side of `validateResponses`: `answerCheck` binds the check to the client's mode and drift
// listeners (undefined when off); `checkAnswer` checks one answer of a typed operation and either throws
// (`'throw'`) or reports (`'warn'`). The generated response validators
// (~70 kB) load by dynamic import on the first answer checked, so clients that leave it off load none.
import type { Call, ClientState } from '../client/call.js';
import { BaasResponseError } from '../errors.js';
import { ruleOf } from '../validation/rules.js';
import { checkResponse, isJsonMediaType, mediaTypeOf } from './check.js';
import type { DriftEvent } from '../call-events.js';
import type { ResponseValidation } from '../client/options.js';
import { describeProblems } from './problems.js';

/** The body when the check had to parse it (JSON of a JSON media type), so the reader need not parse it again. */
export type Parsed = { body: unknown } | undefined;

/** Who hears a drift in `'warn'` mode: the client's observer (logger, `client.on`) and `onDrift`. */
export interface DriftListeners {
  onDrift: ((event: DriftEvent) => void) | undefined;
  state: Pick<ClientState, 'observer'>;
}

/** Checks one answer; resolves with the parsed body when it parsed one, throws in `'throw'` mode. */
export type AnswerCheck = (response: Response, text: string, call: Call) => Promise<Parsed>;

/** Undefined when off (the default), so readers skip it at no cost. */
export function answerCheck(
  mode: ResponseValidation | undefined,
  onDrift: ((event: DriftEvent) => void) | undefined,
  state: ClientState,
): AnswerCheck | undefined {
  // The option's rule is createBaasClient's declaration (src/client/options.ts), checked before this.
  if (!mode || mode === 'off') return undefined;
  const listeners = { onDrift, state };
  return (response, text, call) => checkAnswer(mode, listeners, response, text, call);
}

let contract: Promise<typeof import('../generated/response-validators.js')> | undefined;

export async function checkAnswer(
  mode: 'warn' | 'throw',
  listeners: DriftListeners,
  response: Response,
  text: string,
  call: Call,
): Promise<Parsed> {
  contract ??= import('../generated/response-validators.js');
  const { responseContract } = await contract;
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
  const problems = checkResponse(responseContract, ruleOf, {
    operationId,
    status: response.status,
    headers: response.headers,
    contentType,
    body,
    bodyUnparsable,
  });
  if (problems.length === 0) return parsed;
  // Masked before anyone hears it: a pointer names a member of the answer, which a provider may name by a CPF.
  const event: DriftEvent = call.secrets.json({
    type: 'drift',
    operationId,
    status: response.status,
    problems,
    method: context.method,
    url: context.url,
    requestId: context.requestId,
  });
  if (mode === 'throw') {
    // No body snippet: the values are what must not leak; pointers and rules say what is wrong.
    throw new BaasResponseError(
      `the answer drifted from the contract: ${describeProblems(problems)}`,
      { status: response.status, contentType: contentType ?? undefined, problems },
      context,
    );
  }
  listeners.state.observer?.drift?.(event);
  try {
    listeners.onDrift?.(event);
  } catch {
    // A listener's failure is not the call's.
  }
  return parsed;
}
