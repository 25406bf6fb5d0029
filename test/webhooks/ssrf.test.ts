import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPublicAddress, literalAddress } from '../../src/kernel/outbound-address.js';
import { checkEndpointUrl } from '../../src/webhooks/endpoint-url.js';
import { ApiError } from '../../src/kernel/errors.js';
import { stubResolver } from '../support/webhook-receiver.js';

test('only global unicast addresses are public', () => {
  const refused = [
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2002:a00:1::1',
    'not-an-ip',
  ];
  const allowed = [
    '8.8.8.8',
    '93.184.216.34',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const address of refused) assert.equal(isPublicAddress(address), false, address);
  for (const address of allowed) assert.equal(isPublicAddress(address), true, address);
});

const resolve = stubResolver({
  'hooks.example.com': ['93.184.216.34'],
  'dual.example.com': ['93.184.216.34', '2606:2800:220:1::248'],
  'internal.example.com': ['10.0.0.7'],
  'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:192.168.0.1'],
  localhost: ['127.0.0.1', '::1'],
});

async function refusal(url: string, allowPrivate = false): Promise<ApiError> {
  const error = await checkEndpointUrl(url, { resolve, allowPrivate }).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError, `${url} should be refused`);
  assert.equal(error.code, 'invalid_field_value');
  assert.equal(error.param, 'url');
  return error;
}

test('a host is read as an address in every form, and a name is a name', () => {
  // Every IPv4 form ipaddr.js reads, and IPv6 bracketed or not, comes back in its canonical form.
  for (const [host, address] of [
    ['127.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0xa.0.0.1', '10.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['::1', '::1'],
    ['[fe80::1%eth0]', 'fe80::1%eth0'],
  ] as const)
    assert.equal(literalAddress(host), address, host);
  // Names, including those made only of hex digits and dots, are not addresses.
  for (const name of ['localhost', 'example.com', 'cafe.babe', 'face.b00c', 'xn--bcher-kva.example', 'a'])
    assert.equal(literalAddress(name), null, name);
});

test('endpoint URLs: HTTPS, no credentials, public addresses only', async () => {
  for (const url of [
    'http://hooks.example.com/x',
    'ftp://hooks.example.com/',
    'https://user:pass@hooks.example.com/',
    'https://user@hooks.example.com/',
    'https://127.0.0.1/',
    'https://localhost/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://017700000001/',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00:ec2::254]/',
    'https://10.0.0.1/',
    'https://100.64.0.1/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://internal.example.com/',
    'https://mixed.example.com/',
    'https://metadata.example.com/',
    'https://mapped.example.com/',
    'https://nowhere.example.com/',
    'not a url',
    `https://hooks.example.com/${'a'.repeat(2100)}`,
  ])
    await refusal(url);
});

test('public hosts and addresses are accepted, normalized', async () => {
  assert.equal(
    await checkEndpointUrl('https://hooks.example.com/in', { resolve, allowPrivate: false }),
    'https://hooks.example.com/in',
  );
  assert.equal(
    await checkEndpointUrl('https://dual.example.com:8443/in?x=1', { resolve, allowPrivate: false }),
    'https://dual.example.com:8443/in?x=1',
  );
  assert.equal(
    await checkEndpointUrl('https://93.184.216.34/', { resolve, allowPrivate: false }),
    'https://93.184.216.34/',
  );
});

test('FACTEUR_ALLOW_PRIVATE_WEBHOOKS lets tests use a local receiver, still HTTPS only', async () => {
  assert.equal(
    await checkEndpointUrl('https://localhost:9443/hooks', { resolve, allowPrivate: true }),
    'https://localhost:9443/hooks',
  );
  await refusal('http://localhost:9443/hooks', true);
  await refusal('https://nowhere.example.com/', true);
});
