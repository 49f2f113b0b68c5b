// Certificates made at test time with openssl: a CA, a server certificate for 127.0.0.1, and client
// certificates that are valid, issued by an unknown CA, or expired; plus an encrypted key and a
// PKCS#12 bundle. EC P-256 keys, so generation takes a fraction of a second.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface TestCerts {
  dir: string;
  ca: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string };
  /** The client key encrypted with `passphrase`. */
  encryptedKey: string;
  passphrase: string;
  /** The client certificate and key as PKCS#12, protected by `passphrase`. */
  pfx: Buffer;
  /** A client certificate from a CA the server does not know. */
  unknown: { cert: string; key: string; ca: string };
  /** A client certificate from the right CA whose validity ended yesterday. */
  expired: { cert: string; key: string };
  remove(): Promise<void>;
}

async function openssl(dir: string, args: string[]): Promise<void> {
  try {
    await exec('openssl', args, { cwd: dir });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('these tests need the openssl command: apt-get install -y openssl');
    throw new Error(`openssl ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
  }
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function makeCa(dir: string, name: string): Promise<void> {
  await openssl(dir, [
    'req',
    '-x509',
    ...EC,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

async function issue(dir: string, name: string, ca: string, ext: string, days: number, serial: number): Promise<void> {
  await writeFile(join(dir, `${name}.ext`), ext);
  await openssl(dir, ['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-set_serial',
    String(serial),
    '-days',
    String(days),
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  ]);
}

export async function makeTestCerts(): Promise<TestCerts> {
  const dir = await mkdtemp(join(tmpdir(), 'baas-certs-'));
  const passphrase = 'correct horse battery staple';
  try {
    await makeCa(dir, 'test-ca');
    await makeCa(dir, 'other-ca');
    const clientExt = 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n';
    await issue(
      dir,
      'server',
      'test-ca',
      'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
      2,
      1,
    );
    await issue(dir, 'client', 'test-ca', clientExt, 2, 2);
    await issue(dir, 'stranger', 'other-ca', clientExt, 2, 3);
    // -days -1: notAfter is a day before now.
    await issue(dir, 'expired', 'test-ca', clientExt, -1, 4);
    await openssl(dir, [
      'pkey',
      '-in',
      'client.key',
      '-aes256',
      '-passout',
      `pass:${passphrase}`,
      '-out',
      'client-encrypted.key',
    ]);
    await openssl(dir, [
      'pkcs12',
      '-export',
      '-inkey',
      'client.key',
      '-in',
      'client.crt',
      '-passout',
      `pass:${passphrase}`,
      '-out',
      'client.p12',
    ]);
    const text = (name: string) => readFile(join(dir, name), 'utf8');
    return {
      dir,
      ca: await text('test-ca.crt'),
      server: { cert: await text('server.crt'), key: await text('server.key') },
      client: { cert: await text('client.crt'), key: await text('client.key') },
      encryptedKey: await text('client-encrypted.key'),
      passphrase,
      pfx: await readFile(join(dir, 'client.p12')),
      unknown: { cert: await text('stranger.crt'), key: await text('stranger.key'), ca: await text('other-ca.crt') },
      expired: { cert: await text('expired.crt'), key: await text('expired.key') },
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
