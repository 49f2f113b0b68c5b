// Every type a public signature uses has a name a program can import: a listener of `client.on`, a TLS
// config helper, a test double of a failing token source, a switch over the operation an error or an
// event names, a raw method. Written as a consumer writes them, against the root and sandbox entries.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createBaasClient,
  operationNames,
  Secrets,
  BaasTokenError,
  type BaasClient,
  type BaasError,
  type BaasEventListener,
  type CallEventFields,
  type CallOperation,
  type ErrorContext,
  type BaasErrorEvent,
  type HttpMethod,
  type OperationName,
  type PemClientCertificate,
  type PfxClientCertificate,
  type PrivateCaOnly,
  type RawClient,
  type RawInitArgs,
  type RawMethod,
  type RawOperation,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
  type TlsOptions,
  type BaasTokenErrorInit,
  type UpdateFailure,
  type UpdateManyResult,
  type UpdateSuccess,
} from '../../src/index.js';
import type { operations, PixKey } from '../../src/types.js';
import type {
  Fault,
  NaturalPersonUpdate as SandboxNaturalPersonUpdate,
  OperationName as SandboxOperationName,
  PixKey as SandboxPixKey,
  SnapshotAccount,
} from '../../src/sandbox/index.js';

const LIST = '/v2/api/pix/keys/list-keys';
const UPDATE = '/v2/api/baas-onboarding/account/natural-person';

describe('the names a consumer writes', () => {
  it('OperationName is the spec operationIds, one name for one thing; CallOperation adds raw', () => {
    expectTypeOf<OperationName>().toEqualTypeOf<'updateNaturalPerson' | 'listPixKeys'>();
    expectTypeOf<OperationName>().toEqualTypeOf<keyof operations>();
    expectTypeOf(operationNames).toEqualTypeOf<OperationName[]>();
    expectTypeOf<CallOperation>().toEqualTypeOf<OperationName | 'raw'>();
    expectTypeOf<BaasError['operation']>().toEqualTypeOf<CallOperation | undefined>();
    expectTypeOf<ErrorContext['operation']>().toEqualTypeOf<CallOperation | undefined>();
    // A metrics label per operation: the switch is exhaustive over the exported names.
    const label = (operation: CallOperation): string => {
      switch (operation) {
        case 'updateNaturalPerson':
          return 'update';
        case 'listPixKeys':
          return 'list';
        case 'raw':
          return 'raw';
      }
    };
    expectTypeOf(label).parameter(0).toEqualTypeOf<CallOperation>();
    // @ts-expect-error not an operationId of the spec
    const wrong: OperationName = 'getPixKey';
    void wrong;
  });

  it('annotates a listener of client.on with BaasEventListener, or from the method itself', () => {
    const client: BaasClient = createBaasClient({ baseUrl: 'https://api.baas.example', token: 't' });
    const onResponse: BaasEventListener<'response'> = (event) => {
      expectTypeOf(event).toEqualTypeOf<ResponseEvent>();
      expectTypeOf(event.operation).toEqualTypeOf<CallOperation>();
    };
    const stop = client.on('response', onResponse);
    expectTypeOf(stop).toEqualTypeOf<() => void>();
    type OnRetry = Parameters<typeof client.on<'retry'>>[1];
    expectTypeOf<OnRetry>().toEqualTypeOf<BaasEventListener<'retry'>>();
    // @ts-expect-error a response listener does not hear retries
    client.on('retry', onResponse);
  });

  it('CallEventFields is what request, response, retry and error events share', () => {
    const where = (event: CallEventFields) => `${event.operation} ${event.method} ${event.url} #${event.attempt}`;
    expectTypeOf(where).toBeCallableWith({} as RequestEvent);
    expectTypeOf(where).toBeCallableWith({} as ResponseEvent);
    expectTypeOf(where).toBeCallableWith({} as RetryEvent);
    expectTypeOf(where).toBeCallableWith({} as BaasErrorEvent);
  });

  it('names each shape of the tls option, for a config helper that returns one', () => {
    const fromFiles = (cert: string, key: string): PemClientCertificate => ({ cert, key, passphrase: 'from-a-vault' });
    const pem = fromFiles('-----BEGIN CERTIFICATE-----', '-----BEGIN PRIVATE KEY-----');
    const pfx: PfxClientCertificate = { pfx: new Uint8Array([1]), passphrase: 'p' };
    const ca: PrivateCaOnly = { ca: ['-----BEGIN CERTIFICATE-----'] };
    expectTypeOf(pem).toMatchTypeOf<TlsOptions>();
    expectTypeOf(pfx).toMatchTypeOf<TlsOptions>();
    expectTypeOf(ca).toMatchTypeOf<TlsOptions>();
    expectTypeOf<TlsOptions>().toEqualTypeOf<PemClientCertificate | PfxClientCertificate | PrivateCaOnly>();
    void createBaasClient({ baseUrl: 'https://api.baas.example', token: 't', tls: pem });
    // @ts-expect-error a PEM certificate needs its key
    const noKey: PemClientCertificate = { cert: '-----BEGIN CERTIFICATE-----' };
    // @ts-expect-error a private authority only is a ca, required
    const noCa: PrivateCaOnly = {};
    void [noKey, noCa];
  });

  it('builds a BaasTokenError for a test double of a failing token source', () => {
    const init: BaasTokenErrorInit = {
      failure: 'rejected',
      tokenUrl: 'https://auth.example.test/token',
      detail: 'no',
      secrets: Secrets.of([]),
    };
    const failing = async (): Promise<string> => {
      throw new BaasTokenError({ ...init, status: 401, error: 'invalid_client' });
    };
    expectTypeOf(failing).returns.resolves.toBeString();
    // @ts-expect-error not a TokenFailure
    const wrong: BaasTokenErrorInit = { failure: 'refused', tokenUrl: 'https://auth.example.test/token', detail: 'no' };
    void wrong;
  });

  it('names the raw methods and their parts', () => {
    expectTypeOf<HttpMethod>().toEqualTypeOf<
      'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace'
    >();
    expectTypeOf<RawClient['GET']>().toEqualTypeOf<RawMethod<'get'>>();
    expectTypeOf<RawOperation<typeof LIST, 'get'>>().toEqualTypeOf<operations['listPixKeys']>();
    expectTypeOf<RawOperation<typeof UPDATE, 'put'>>().toEqualTypeOf<operations['updateNaturalPerson']>();
    // The list call's User-Agent header is required, so its init is too.
    expectTypeOf<RawInitArgs<operations['listPixKeys'], 'json'>['length']>().toEqualTypeOf<1>();
  });

  it('names what every update result carries, on success and failure alike', () => {
    expectTypeOf<UpdateSuccess['index']>().toBeNumber();
    expectTypeOf<UpdateFailure<{ id: string }>['item']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<UpdateManyResult['index']>().toBeNumber();
  });

  it('lets a test that imports only the sandbox name the contract types its declarations use', () => {
    expectTypeOf<SandboxPixKey>().toEqualTypeOf<PixKey>();
    expectTypeOf<SnapshotAccount['keys']>().toEqualTypeOf<SandboxPixKey[]>();
    expectTypeOf<SandboxOperationName>().toEqualTypeOf<OperationName>();
    expectTypeOf<Fault['operation']>().toEqualTypeOf<SandboxOperationName | '*'>();
    expectTypeOf<SandboxNaturalPersonUpdate['address']>().not.toBeAny();
  });
});
