/** The OpenAPI checker finds what breaks the AFNOR documents (so that "no violation" means something). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afnorDocuments } from '../../src/platform/openapi-validator.js';

const { flow, directory } = afnorDocuments();
const json = { 'content-type': 'application/json' };

test('requests: unknown operation, bad parameters, bad bodies, wrong content type are found; good ones pass', () => {
  const rows: [Parameters<typeof flow.checkRequest>[0], RegExp | null][] = [
    [
      { method: 'POST', path: '/flow-service/v1/flows/search', headers: json, body: { where: { trackingId: 'x' } } },
      null,
    ],
    [
      { method: 'POST', path: '/flow-service/v1/flows/search', headers: json, body: { limit: 5 } },
      /must have required property 'where'/,
    ],
    [
      { method: 'POST', path: '/flow-service/v1/flows/search', headers: json, body: { where: { flowType: ['Nope'] } } },
      /allowed values/,
    ],
    [
      { method: 'POST', path: '/flow-service/v1/flows/search', headers: { 'content-type': 'text/plain' }, body: {} },
      /content type/,
    ],
    [{ method: 'GET', path: '/flow-service/v1/flows/abc?docType=Original', headers: {} }, null],
    [{ method: 'GET', path: '/flow-service/v1/flows/abc?docType=Pdf', headers: {} }, /docType/],
    [{ method: 'GET', path: '/flow-service/v1/flows/abc', headers: { 'request-id': 'not-a-uuid' } }, /Request-Id/],
    [
      {
        method: 'POST',
        path: '/flow-service/v1/flows',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        body: { flowInfo: { name: 'a.xml', flowSyntax: 'CII', sha256: 'a'.repeat(64) }, file: 'binary' },
      },
      null,
    ],
    [
      {
        method: 'POST',
        path: '/flow-service/v1/flows',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        body: { flowInfo: { name: 'a.xml' } },
      },
      /required property/,
    ],
    [{ method: 'DELETE', path: '/flow-service/v1/flows/abc', headers: {} }, /no such operation/],
    [{ method: 'GET', path: '/directory-service/v1/siren/code-insee:12345678', headers: {} }, /pattern/],
    [{ method: 'GET', path: '/directory-service/v1/siren/code-insee:123456789', headers: {} }, null],
  ];
  for (const [request, expected] of rows) {
    const document = request.path.startsWith('/flow') ? flow : directory;
    const problems = document.checkRequest(request);
    if (expected) assert.match(problems.join('\n'), expected, `${request.method} ${request.path}`);
    else assert.deepEqual(problems, [], `${request.method} ${request.path}`);
  }
});

test('answers: undocumented status, wrong content type, body off its schema are found', () => {
  const search = { method: 'POST', path: '/flow-service/v1/flows/search' };
  assert.deepEqual(
    flow.checkResponse({ ...search, status: 200, contentType: 'application/json', body: { results: [] } }),
    [],
  );
  assert.match(
    flow.checkResponse({ ...search, status: 409, contentType: 'application/json', body: {} }).join(),
    /not documented/,
  );
  assert.match(
    flow.checkResponse({ ...search, status: 200, contentType: 'text/html', body: {} }).join(),
    /content type/,
  );
  assert.match(
    flow
      .checkResponse({ ...search, status: 200, contentType: 'application/json', body: { results: [{ flowId: 'x' }] } })
      .join(),
    /required property/,
  );
  assert.match(
    flow.checkResponse({ ...search, status: 500, contentType: 'application/json', body: { errorMessage: 'x' } }).join(),
    /errorCode/,
  );
  // The extensible enum of reason codes: a listed value and another string both pass; a number does not.
  const detail = (reasonCode: unknown) => ({ level: 'Error', item: 'file', reasonCode, reasonMessage: 'm' });
  assert.deepEqual(flow.checkSchema('AcknowledgementDetail', detail('AlreadyExistingFlow')), []);
  assert.deepEqual(flow.checkSchema('AcknowledgementDetail', detail('REJ_SEMAN')), []);
  assert.notDeepEqual(flow.checkSchema('AcknowledgementDetail', detail(12)), []);
});
