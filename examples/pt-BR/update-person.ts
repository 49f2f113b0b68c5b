// Atualiza o contato e o endereço de um cliente: validação antes do envio, depois um PUT.
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
// {version, status}, ou undefined quando o serviço responde com um 200 vazio ou um 204.
const result = await baas.updateNaturalPerson({ account, documentNumber, body });
console.log('updated:', result?.status ?? 'no body');
