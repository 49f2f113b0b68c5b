// One consumer for every runtime (Node, Bun, Deno, workerd): what a service does with the package,
// from the packed tarball, against a sandbox served over HTTP by the test. Plain JavaScript with only
// web-standard globals, so every runtime runs this very file (workerd through one bundled Worker).
// It returns what it saw; the test compares it with the sandbox's own numbers.
import { BaasApiError, BaasValidationError, clientCredentials, createBaasClient } from 'baas-pix-contract';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** What creating with `tls` does here: 'created', or the error's name and the option it names (BaasOptionError's `option`). */
function creation(make) {
  try {
    make();
    return 'created';
  } catch (error) {
    return { name: error.name, names: error.option };
  }
}

// Creation only, never called: an https URL, since `tls` beside a plain http one is refused everywhere.
const TLS_BASE_URL = 'https://provider.example/gw';

/** The class and status of what a call rejected with (or 'resolved'). */
const outcome = (promise) =>
  promise.then(
    () => 'resolved',
    (error) => ({
      name: error.name,
      kind: error.kind,
      status: error.status,
      isApiError: error instanceof BaasApiError,
      isValidationError: error instanceof BaasValidationError,
      paths: error.issues?.map((issue) => issue.path),
    }),
  );

export async function consume({ baseUrl, token, clientId, clientSecret, account, documentNumber }) {
  const baas = createBaasClient({ baseUrl, token, userAgent: 'runtime-consumer/1.0' });

  // The test armed one 503 for listPixKeys: the client retries it and gets the page.
  const firstPage = await baas.listPixKeys({ limit: 2 });
  const updated = await baas.updateNaturalPerson({ account, documentNumber, body: { socialName: 'Maria Runtime' } });

  // Refused before sending (a CPF with a wrong check digit), and a BaasApiError from the sandbox (an unknown account).
  const wrongDigit = documentNumber.slice(0, 10) + String((Number(documentNumber[10]) + 1) % 10);
  const invalid = await outcome(
    baas.updateNaturalPerson({ account, documentNumber: wrongDigit, body: { email: 'a@b.co' } }),
  );
  const notFound = await outcome(
    baas.updateNaturalPerson({ account: '999999999999', documentNumber, body: { email: 'a@b.co' } }),
  );

  // Client credentials against the sandbox's token endpoint, then a full walk of the keys with it.
  const source = clientCredentials({ tokenUrl: `${baseUrl}/oauth/token`, clientId, clientSecret });
  const withCredentials = createBaasClient({ baseUrl, token: source, userAgent: 'runtime-consumer/1.0' });
  let walked = 0;
  const ids = new Set();
  for await (const key of withCredentials.pixKeys({ limit: 3 })) {
    walked += 1;
    ids.add(key.id);
  }
  await source.close();

  return {
    firstPage: { keys: firstPage.data.length, hasNext: typeof firstPage.cursor.next === 'string' },
    updated,
    invalid,
    notFound,
    walk: { keys: walked, distinct: ids.size },
    tls: {
      client: creation(() => createBaasClient({ baseUrl: TLS_BASE_URL, token, tls: { ca: CA } })),
      clientCredentials: creation(() =>
        clientCredentials({ tokenUrl: `${TLS_BASE_URL}/oauth/token`, clientId, clientSecret, tls: { ca: CA } }),
      ),
    },
  };
}
