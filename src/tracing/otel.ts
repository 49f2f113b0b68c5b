// OpenTelemetry for every call of createBaasClient, with no option: when the application has
// `@opentelemetry/api` (an optional peer) and registers an SDK, each call is one CLIENT span, its
// attempts events on it, its `traceparent` sent with every attempt, its duration recorded in
// `http.client.request.duration`. Without an SDK registered, a call costs a look at the api's global
// registry (it need not even be loaded); without the api, one property read once it is known absent.
//
// The api loads once, by `import()`, on the first call made while an SDK is registered (the api's
// global registry holds a tracer or meter provider, or a propagator); that call and any made before
// the import settles wait for it. What a span shows comes from the call's redacted events (src/call-events.ts) and the pure
// functions of attributes.ts: never a token, a CPF or a query value.
import type * as Otel from '@opentelemetry/api';
import type { CallEvent, CallObserver, CallStart, CallTracing } from '../call-events.js';
import { hideQueryValuesIn } from '../redact.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';
import { errorType, fullUrl, parseUrl, routeOf, serverOf } from './attributes.js';

type Api = typeof Otel;

/** The semantic conventions' buckets for `http.client.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Where @opentelemetry/api 1.x keeps what an SDK registers (its tracer provider, propagator, …). */
const API_GLOBALS = Symbol.for('opentelemetry.js.api.1');
const PROVIDERS = ['trace', 'metrics', 'propagation'];

// The .catch on the import() itself tells a bundler (esbuild, so wrangler) that a missing api is
// handled at run time: without it, bundling an application without the optional peer fails.
let importApi = (): Promise<unknown> => import('@opentelemetry/api').catch(() => undefined);
let loading: Promise<Api | undefined> | undefined;
/** The api, once loaded; `missing` once it is known not to be there. */
let loaded: Api | undefined;
let missing = false;

// Node's import of the api's CommonJS build gives its members by name; a bundler may give `default`.
function apiOf(module: unknown): Api | undefined {
  const named = module as (Partial<Api> & { default?: Partial<Api> }) | undefined;
  const api = named?.trace ? named : named?.default;
  return api?.trace && api.context && api.propagation && api.SpanKind ? (api as Api) : undefined;
}

function load(): Promise<Api | undefined> {
  // A loader that rejects (another copy of the api, in tests) is the api missing too.
  loading ??= importApi()
    .catch(() => undefined)
    .then((module) => {
      loaded = apiOf(module);
      missing = loaded === undefined;
      return loaded;
    });
  return loading;
}

/**
 * The module loader from now on, and nothing loaded yet: the tests' way to run without the api (a
 * loader that rejects) or with another copy. Not exported by the package.
 */
export function loadApiWith(loader: () => Promise<unknown>): void {
  importApi = loader;
  loading = undefined;
  loaded = undefined;
  missing = false;
}

/** Whether an SDK registered anything with the api: without that, the api does nothing for a call. */
function registered(): boolean {
  const globals = (globalThis as Record<symbol, unknown>)[API_GLOBALS];
  return typeof globals === 'object' && globals !== null && PROVIDERS.some((name) => name in globals);
}

/** The client's `tracing` hook. */
export function callTracing(): CallTracing {
  return (start) => {
    if (missing || !registered()) return undefined;
    if (loaded) return traceCall(loaded, start);
    return load().then((api) => (api ? traceCall(api, start) : undefined));
  };
}

// By the api's current tracer provider: `trace.disable()` makes a new one, and a tracer got from the
// one before would keep sending spans to the provider that was unregistered.
const tracers = new WeakMap<Otel.TracerProvider, Otel.Tracer>();
const histograms = new WeakMap<Otel.MeterProvider, Otel.Histogram | undefined>();

/** The duration histogram of the meter provider registered now; undefined when none is (no-op meter). */
function durationHistogram(api: Api): Otel.Histogram | undefined {
  const provider = api.metrics?.getMeterProvider();
  if (!provider) return undefined;
  if (histograms.has(provider)) return histograms.get(provider);
  const meter = provider.getMeter(PACKAGE_NAME, PACKAGE_VERSION);
  const histogram =
    meter === api.createNoopMeter?.()
      ? undefined
      : meter.createHistogram('http.client.request.duration', {
          unit: 's',
          description: 'Duration of HTTP client requests.',
          advice: { explicitBucketBoundaries: DURATION_BUCKETS },
        });
  histograms.set(provider, histogram);
  return histogram;
}

/**
 * One call's span and duration; undefined when nothing records them. An SDK that throws turns tracing
 * off for the call: never the call's own outcome.
 */
function traceCall(api: Api, start: CallStart): CallObserver | undefined {
  let observer: ReturnType<typeof observeCall>;
  try {
    observer = observeCall(api, start);
  } catch {
    // The span could not start: the call goes on untraced.
  }
  if (!observer) return undefined;
  const guarded: CallObserver = {};
  for (const hook of ['attempt', 'response', 'retry', 'done', 'error'] as const) {
    const told = observer[hook];
    guarded[hook] = (event) => {
      try {
        told(event);
      } catch {
        // The SDK's failure is not the call's.
      }
    };
  }
  return guarded;
}

function observeCall(api: Api, start: CallStart): Required<Omit<CallObserver, 'drift'>> | undefined {
  const provider = api.trace.getTracerProvider();
  let tracer = tracers.get(provider);
  if (!tracer) {
    tracer = provider.getTracer(PACKAGE_NAME, PACKAGE_VERSION);
    tracers.set(provider, tracer);
  }
  const { method } = start;
  const url = parseUrl(start.url);
  const { operation, route } = routeOf(start.operation, method, url);
  const common: Otel.Attributes = { 'http.request.method': method, ...serverOf(url), 'baas.operation': operation };
  const parent = api.context.active();
  const span = tracer.startSpan(
    route ? `${method} ${route}` : method,
    { kind: api.SpanKind.CLIENT, attributes: { ...common, 'url.full': fullUrl(url, start.url) } },
    parent,
  );
  // The call's span is the parent of whatever the server does, for every attempt.
  api.propagation.inject(api.trace.setSpan(parent, span), start.headers);
  const histogram = durationHistogram(api);
  if (!span.isRecording() && !histogram) return undefined;

  const began = performance.now();
  /** The status of the current attempt's answer, if it has one. */
  let status: number | undefined;
  // What a span says in words: masked, and no query value of any URL in it (an error's message names
  // the request's URL, whose query holds the account and the cursor).
  // (and the call's own query values, wherever the provider's text echoes them).
  const queryValues = url ? [...url.searchParams.values()] : [];
  const shown = (text: string) => start.secrets.bounded(hideQueryValuesIn(text, queryValues));

  const end = (event: CallEvent, error?: unknown) => {
    const failed = error !== undefined || (status ?? 0) >= 400;
    const type = failed ? errorType(error, status) : undefined;
    const outcome: Otel.Attributes = {
      ...(status !== undefined && { 'http.response.status_code': status }),
      ...(type !== undefined && { 'error.type': type }),
    };
    span.setAttributes({ ...outcome, 'url.full': fullUrl(parseUrl(event.url), event.url) });
    if (type !== undefined) {
      // Only the package's own errors say why, in their (redacted) message; what else a call is
      // aborted with is the caller's, and goes unread.
      const { kind, name, message } = (error ?? {}) as { kind?: unknown; name?: unknown; message?: unknown };
      const said = typeof kind === 'string' && typeof message === 'string' ? shown(message) : undefined;
      if (error !== undefined) {
        span.addEvent('exception', {
          'exception.type': typeof kind === 'string' && typeof name === 'string' ? name : type,
          ...(said !== undefined && { 'exception.message': said }),
        });
      }
      span.setStatus({ code: api.SpanStatusCode.ERROR, ...(said !== undefined && { message: said }) });
    }
    histogram?.record((performance.now() - began) / 1000, { ...common, ...outcome });
    span.end();
  };

  return {
    attempt(event) {
      status = undefined;
      if (event.attempt > 1) span.setAttribute('http.request.resend_count', event.attempt - 1);
      span.addEvent('baas.attempt', { 'baas.attempt': event.attempt });
    },
    response(event) {
      // A response event always has its status.
      status = event.status;
      span.addEvent('baas.response', { 'baas.attempt': event.attempt, 'http.response.status_code': status });
    },
    retry(event) {
      span.addEvent('baas.retry', {
        'baas.attempt': event.attempt,
        // A retry event always has its wait and reason.
        'baas.retry.wait_ms': event.waitMs,
        'baas.retry.reason': shown(String(event.reason)),
      });
    },
    done: (event) => end(event),
    error: (event) => end(event, event.error),
  };
}
