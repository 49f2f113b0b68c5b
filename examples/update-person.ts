// Update a customer's contact and address: pre-flight validation, then one PUT.
import { createBaasClient } from 'baas-pix-contract';
import type { NaturalPersonUpdate } from 'baas-pix-contract/types';
import { firstCustomer, serviceFromEnv } from './support/service.js';

const service = serviceFromEnv();
console.error(`Calling ${service.description}`);
const baas = createBaasClient({ ...service.client, userAgent: 'examples/1.0' });
const { account, documentNumber } = await firstCustomer(baas);

const body: NaturalPersonUpdate = {
  phoneNumber: '+5511987654321',
  email: 'maria.silva@exemplo.com.br',
  address: { postalCode: '01310100', street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP' },
};
// {version, status}, or undefined when the service answers with an empty 200 or a 204.
const result = await baas.updateNaturalPerson({ account, documentNumber, body });
console.log('updated:', result?.status ?? 'no body');
