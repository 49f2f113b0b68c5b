// `validateResponses` as the client sees it: undefined when off, else the check of src/drift/answer.ts
// bound to the client's mode and drift listeners. The generated response validators load on the first
// answer checked (see answer.ts).
import { checkAnswer, type Parsed } from '../drift/answer.js';
import type { DriftEvent } from '../call-events.js';
import type { Call, ClientState } from './call.js';
import type { ResponseValidation } from './options.js';

/** Checks one answer; resolves with the parsed body when it parsed one, throws in `'throw'` mode. */
export type AnswerCheck = (response: Response, text: string, call: Call) => Promise<Parsed>;

/** Undefined when off (the default), so readers skip it at no cost. Checks the option at creation. */
export function answerCheck(
  mode: ResponseValidation | undefined,
  onDrift: ((event: DriftEvent) => void) | undefined,
  state: ClientState,
): AnswerCheck | undefined {
  if (!mode || mode === 'off') return undefined;
  if (mode !== 'warn' && mode !== 'throw')
    throw new TypeError('createBaasClient: validateResponses must be off, warn or throw');
  const listeners = { onDrift, state };
  return (response, text, call) => checkAnswer(mode, listeners, response, text, call);
}
