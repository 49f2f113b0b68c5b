// A consumer's file: compiled with strict tsc against the installed tarball, then run against the mock.
import {
  ApiError,
  ValidationError,
  createBaasClient,
  validateNaturalPersonUpdate,
  type NaturalPersonUpdate,
  type PixKey,
} from 'baas-pix-contract';
import { preferHeaders, startMock } from 'baas-pix-contract/testing';

const body: NaturalPersonUpdate = { email: 'maria.silva@email.com.br' };

const mock = await startMock();
try {
  const baas = createBaasClient({ baseUrl: mock.url, token: 'consumer-token', userAgent: 'consumer/1.0' });
  const updated = await baas.updateNaturalPerson({ account: '300541976902', documentNumber: '52998224725', body });
  const keys: PixKey[] = [];
  for await (const key of baas.pixKeys({ limit: 2, maxPages: 1 })) keys.push(key);

  const invalid = await baas
    .updateNaturalPerson({ account: '300541976902', documentNumber: '52998224724', body })
    .catch((error: unknown) => error);
  const limited = await createBaasClient({
    baseUrl: mock.url,
    token: 'consumer-token',
    retry: false,
    fetch: (request) => {
      for (const [name, value] of Object.entries(preferHeaders({ code: 429 }))) request.headers.set(name, value);
      return fetch(request);
    },
  })
    .listPixKeys()
    .catch((error: unknown) => error);

  console.log(
    JSON.stringify({
      updated,
      keyTypes: keys.map((k) => k.key_type),
      validatorIssues: validateNaturalPersonUpdate({ phoneNumber: '123' }).map((i) => i.path),
      invalidIsValidationError: invalid instanceof ValidationError,
      limitedStatus: limited instanceof ApiError ? limited.status : null,
    }),
  );
} finally {
  await mock.stop();
}
