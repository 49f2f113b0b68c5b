// `validateResponses` as the client entry sees it: a few lines that load the checker (and the
// generated response validators behind it) by dynamic import the first time an answer is checked.
import type { Parsed } from '../drift/answer.js';
import type { DriftEvent } from '../drift/problems.js';
import { ResponseError } from '../errors.js';
import { redactJson } from '../redact.js';
import { ruleOf } from '../validation/rules.js';
import type { Call, ClientState } from './call.js';
import type { ResponseValidation } from './options.js';

/** Checks one answer; resolves with the parsed body when it parsed one, throws in `'throw'` mode. */
export type AnswerCheck = (response: Response, text: string, call: Call) => Promise<Parsed>;

/** Undefined when off (the default), so readers skip it at no cost. Checks the option at creation. */
export function answerCheck(mode: ResponseValidation | undefined, onDrift: ((event: DriftEvent) => void) | undefined, state: ClientState): AnswerCheck | undefined {
  if (!mode || mode === 'off') return undefined;
  if (mode !== 'warn' && mode !== 'throw') throw new TypeError('createBaasClient: validateResponses must be off, warn or throw');
  let loading: Promise<typeof import('../drift/answer.js')> | undefined;
  const kit = { ResponseError, ruleOf, onDrift, state, redact: redactJson };
  return async (response, text, call) => (await (loading ??= import('../drift/answer.js'))).checkAnswer(mode, kit, response, text, call);
}
