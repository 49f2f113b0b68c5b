// The drift matrix: one contract break per case, and controls the contract allows. `expected` is
// what a reader must flag, as part + JSON pointer; `stateful` breaks need more than one response
// to see, so the per-response checker cannot express them.
import type { Break } from '../support/drift-server.js';

export interface DriftCase {
  name: string;
  breakIt: Break;
  expected: { part: string; pointer: string }[];
  /** Only visible across responses (a repeated cursor): the per-response checker cannot see it. */
  stateful?: boolean;
  /** Which request of the run shows it, for checking one response alone. */
  shownBy: 1 | 2 | 'no-token' | 'bad-limit';
}

const onPage1: (change: (body: any) => void) => Break =
  (change) =>
  (answer, { page }) => {
    if (page === 1) change(answer.body);
  };

export const BREAKS: DriftCase[] = [
  {
    name: 'missing required member',
    breakIt: onPage1((b) => delete b.data[0].key_status),
    expected: [{ part: 'body', pointer: '/data/0/key_status' }],
    shownBy: 1,
  },
  {
    name: 'wrong type',
    breakIt: onPage1((b) => (b.data[0].beneficiary_account.branch_code = 1)),
    expected: [{ part: 'body', pointer: '/data/0/beneficiary_account/branch_code' }],
    shownBy: 1,
  },
  {
    name: "key breaks its type's pattern",
    breakIt: onPage1((b) => (b.data[0].key = '11987654321')),
    expected: [{ part: 'body', pointer: '/data/0/key' }],
    shownBy: 1,
  },
  {
    name: 'next repeated',
    breakIt: (answer, { page }) => {
      if (page === 2) (answer.body as any).cursor.next = 'eyJvZmZzZXQiOjJ9';
    },
    expected: [{ part: 'body', pointer: '/cursor/next' }],
    stateful: true,
    shownBy: 2,
  },
  {
    name: 'error that is HTML',
    breakIt: (answer, { page }) => {
      if (page !== 'no-token') return;
      answer.headers['content-type'] = 'text/html; charset=utf-8';
      answer.body = '<html><body><h1>401 Authorization Required</h1></body></html>';
    },
    expected: [{ part: 'content-type', pointer: '' }],
    shownBy: 'no-token',
  },
  {
    name: '200 with text/plain',
    breakIt: (answer, { page }) => {
      if (page !== 1) return;
      answer.headers['content-type'] = 'text/plain';
      answer.body = JSON.stringify(answer.body);
    },
    expected: [{ part: 'content-type', pointer: '' }],
    shownBy: 1,
  },
];

export const CONTROLS: DriftCase[] = [
  {
    name: 'extra unknown member',
    breakIt: onPage1((b) => {
      b.data[0].nickname = 'home phone';
      b.cursor.total = 3;
      b.links = {};
    }),
    expected: [],
    shownBy: 1,
  },
  {
    name: 'unknown key_status',
    breakIt: onPage1((b) => (b.data[0].key_status = 'frozen_by_court_order')),
    expected: [],
    shownBy: 1,
  },
  {
    name: 'missing optional X-Request-Id',
    breakIt: (answer) => {
      delete answer.headers['x-request-id'];
    },
    expected: [],
    shownBy: 1,
  },
];
