// The logger and logLevel options, as the Stainless SDKs have them: any object with debug, info,
// warn and error methods taking (message, object). console and winston fit as they are; pino takes
// (object, message), so wrap it: `{ info: (m, o) => pino.info(o, m), … }`.

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

/** Checks the options, naming the field that is wrong. */
export function resolveLogging(options: LoggingOptions = {}, where = 'createBaasClient'): ResolvedLogging {
  const { logger, logLevel } = options;
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel)) {
    throw new TypeError(`${where}: logLevel must be one of ${LOG_LEVELS.map((l) => `'${l}'`).join(', ')}`);
  }
  if (logger !== undefined) {
    if (!logger || typeof logger !== 'object')
      throw new TypeError(`${where}: logger must be an object with debug, info, warn and error methods`);
    for (const method of ['debug', 'info', 'warn', 'error'] as const) {
      if (typeof (logger as unknown as Record<string, unknown>)[method] !== 'function')
        throw new TypeError(`${where}: logger.${method} must be a function (message, object)`);
    }
  }
  const level = logLevel ?? (logger ? 'warn' : 'off');
  return { logger: level === 'off' ? undefined : (logger ?? (globalThis.console as Logger)), level };
}
