// 2. Pre-flight validation cost against the cost of one loopback request.
import { validateNaturalPersonUpdate, validateUpdateNaturalPersonQuery } from '../src/index.js';
import { exampleServer, fullUpdate } from './lib/servers.js';
import { summarize, type Summary } from './lib/stats.js';

export interface ValidationResult {
  /** The update body alone: the budget's figure. */
  validationUs: Summary;
  /** The query with its CPF check digits, reported beside it. */
  queryValidationUs: Summary;
  opsPerSecond: number;
  loopbackRequestUs: Summary;
  shareOfRequest: number;
}

export async function measureValidation(runs = 15, perRun = 20_000, requestsPerRun = 200): Promise<ValidationResult> {
  const query = { Account: '300541976902', DocumentNumber: '52998224725' };
  const validation: number[] = [];
  const queryValidation: number[] = [];
  const requests: number[] = [];
  const server = await exampleServer();
  try {
    const url = `${server.url}/v2/api/pix/keys/list-keys`;
    for (let i = 0; i < 2_000; i += 1) validateNaturalPersonUpdate(fullUpdate);
    for (let i = 0; i < 200; i += 1) await (await fetch(url)).arrayBuffer();
    for (let run = 0; run < runs; run += 1) {
      let start = process.hrtime.bigint();
      for (let i = 0; i < perRun; i += 1) {
        if (validateNaturalPersonUpdate(fullUpdate).length !== 0) throw new Error('the example must be valid');
      }
      validation.push(Number(process.hrtime.bigint() - start) / 1000 / perRun);
      start = process.hrtime.bigint();
      for (let i = 0; i < perRun; i += 1) {
        if (validateUpdateNaturalPersonQuery(query).length !== 0) throw new Error('the query must be valid');
      }
      queryValidation.push(Number(process.hrtime.bigint() - start) / 1000 / perRun);
      start = process.hrtime.bigint();
      for (let i = 0; i < requestsPerRun; i += 1) await (await fetch(url)).arrayBuffer();
      requests.push(Number(process.hrtime.bigint() - start) / 1000 / requestsPerRun);
    }
  } finally {
    await server.close();
  }
  const validationUs = summarize(validation);
  const loopbackRequestUs = summarize(requests);
  return {
    validationUs,
    queryValidationUs: summarize(queryValidation),
    opsPerSecond: 1e6 / validationUs.median,
    loopbackRequestUs,
    shareOfRequest: validationUs.median / loopbackRequestUs.median,
  };
}
