// The logger and logLevel options, as the Stainless SDKs have them: any object with debug, info,
// warn and error methods taking (message, object). console and winston fit as they are; pino takes
// (object, message), so wrap it: `{ info: (m, o) => pino.info(o, m), … }`.
import { checkOptionValues, must, type OptionRules } from '../option-rules.js';

/** The `logLevel` option: the least severe entry written, or `off`. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';
export type LogMethod = Exclude<LogLevel, 'off'>;

/** The `logger` option: `console`, winston or any object with these four methods; `fields` is the event, masked. */
export interface Logger {
  /** Attempts sent and answered, tokens fetched. */
  debug(message: string, fields: object): void;
  /** Retries. */
  info(message: string, fields: object): void;
  /** Drift from the contract, a token that could not be fetched. */
  warn(message: string, fields: object): void;
  /** A call that failed. */
  error(message: string, fields: object): void;
}

export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];
export interface LoggingOptions {
  /** Where entries go. Default `console` when a logLevel is given. */
  logger?: Logger;
  /** Threshold. Default `warn` when a logger is given, `off` when neither is. */
  logLevel?: LogLevel;
}

export interface ResolvedLogging {
  logger: Logger | undefined;
  level: LogLevel;
}

const LOGGER_METHODS = ['debug', 'info', 'warn', 'error'] as const;

/** Each logging option's rule, once (src/option-rules.ts): createBaasClient's declaration holds these two. */
export const LOGGING_RULES: OptionRules<LoggingOptions> = {
  logLevel: must(
    (level) => LOG_LEVELS.includes(level as LogLevel),
    `must be one of ${LOG_LEVELS.map((l) => `'${l}'`).join(', ')}`,
  ),
  logger: {
    check: (logger) => {
      if (!logger || typeof logger !== 'object') return 'must be an object with debug, info, warn and error methods';
      const missing = LOGGER_METHODS.find(
        (method) => typeof (logger as Record<string, unknown>)[method] !== 'function',
      );
      return missing && { at: `.${missing}`, rule: 'must be a function (message, object)' };
    },
    error: TypeError,
  },
};

/** Checks the options (LOGGING_RULES, a BaasOptionError naming the field that is wrong) and settles the level. */
export function resolveLogging(options: LoggingOptions = {}, where = 'createBaasClient'): ResolvedLogging {
  checkOptionValues(where, options, LOGGING_RULES);
  const { logger, logLevel } = options;
  const level = logLevel ?? (logger ? 'warn' : 'off');
  return { logger: level === 'off' ? undefined : (logger ?? (globalThis.console as Logger)), level };
}
