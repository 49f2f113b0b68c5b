// `npm run mock`: Prism on 127.0.0.1 serving the bundled spec, until Ctrl-C.
// PORT overrides the port (default 4010); MOCK_DYNAMIC=1 generates responses from the schemas.
import { startMock } from '../src/testing/mock.js';

const mock = await startMock({
  port: Number(process.env.PORT ?? 4010),
  dynamic: process.env.MOCK_DYNAMIC === '1',
});
console.log(`Mock listening on ${mock.url} (Ctrl-C to stop)`);
console.log(`  try: curl -H 'Authorization: Bearer test' -H 'User-Agent: demo/1' ${mock.url}/v2/api/pix/keys/list-keys`);
