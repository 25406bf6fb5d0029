import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'pg-connection-string';
import { HostListError, needsHostChoice, oneHostUrl, parseHostList } from '../../src/db/host-list.js';
import { loadConfig, ConfigError } from '../../src/config.js';

test('a host list in libpq syntax: hosts in order, each port or the default, the target', () => {
  const list = parseHostList('postgres://app:secret@h1:5432,h2:5433,h3/facteur?target_session_attrs=read-write');
  assert.deepEqual(list.hosts, [
    { host: 'h1', port: 5432 },
    { host: 'h2', port: 5433 },
    { host: 'h3', port: 5432 },
  ]);
  assert.equal(list.target, 'read-write');
  assert.equal(list.user, 'app');
  assert.equal(needsHostChoice(list), true);
});

test('one host and no target: node-postgres alone', () => {
  const list = parseHostList('postgres://app@db/facteur');
  assert.deepEqual(list.hosts, [{ host: 'db', port: 5432 }]);
  assert.equal(list.target, 'any');
  assert.equal(needsHostChoice(list), false);
  assert.equal(needsHostChoice(parseHostList('postgres://app@db/facteur?target_session_attrs=primary')), true);
  assert.equal(parseHostList('postgresql://db:6543').hosts[0]!.port, 6543);
  assert.deepEqual(parseHostList('postgres:///facteur').hosts, [{ host: 'localhost', port: 5432 }]);
  assert.equal(parseHostList('postgres://db/x').user, '');
});

test('percent-encoding: socket directories, users and passwords; IPv6 in brackets', () => {
  const list = parseHostList('postgres://fac%40teur:p%2Fw%3A@%2Fvar%2Frun%2Fpostgresql:5433,[::1]:5434,[fe80::2]/db');
  assert.deepEqual(list.hosts, [
    { host: '/var/run/postgresql', port: 5433 },
    { host: '::1', port: 5434 },
    { host: 'fe80::2', port: 5432 },
  ]);
  assert.equal(list.user, 'fac@teur');
  assert.throws(() => parseHostList('postgres://u@h%zz/db'), HostListError);
});

test("libpq's other spelling: ?host= and ?port= lists, one port for all or one each", () => {
  assert.deepEqual(parseHostList('postgres:///db?host=a,b&port=6000').hosts, [
    { host: 'a', port: 6000 },
    { host: 'b', port: 6000 },
  ]);
  assert.deepEqual(parseHostList('postgres:///db?host=a,b&port=6000,6001').hosts, [
    { host: 'a', port: 6000 },
    { host: 'b', port: 6001 },
  ]);
});

test('refused: a bad port, an unsupported target, not a postgres URL', () => {
  assert.throws(() => parseHostList('postgres://h1:99999/db'), /port "99999"/);
  assert.throws(() => parseHostList('postgres://h1:54x/db'), /port "54x"/);
  assert.throws(() => parseHostList('postgres://h1/db?target_session_attrs=standby'), /standby is not supported/);
  assert.throws(() => parseHostList('mysql://h1/db'), HostListError);
});

test('the one-host URL of each attempt keeps the rest of the URL and drops the list parameters', () => {
  const url =
    'postgres://app:p%40ss@h1:5432,%2Ftmp%2Fpg:5433,[::1]/facteur?sslmode=disable&target_session_attrs=read-write&options=-c%20statement_timeout%3D5s';
  const list = parseHostList(url);
  const each = list.hosts.map((host) => parse(oneHostUrl(url, host)));
  assert.deepEqual(
    each.map((config) => [config.host, config.port]),
    [
      ['h1', '5432'],
      ['/tmp/pg', '5433'],
      ['::1', '5432'],
    ],
  );
  for (const config of each) {
    assert.equal(config.user, 'app');
    assert.equal(config.password, 'p@ss');
    assert.equal(config.database, 'facteur');
    assert.equal(config.options, '-c statement_timeout=5s');
    assert.equal(config.ssl, false);
    assert.equal((config as Record<string, unknown>).target_session_attrs, undefined);
  }
});

test('the start refuses a DATABASE_URL whose list it cannot read', () => {
  assert.throws(
    () => loadConfig({ DATABASE_URL: 'postgres://u@h1:5432,h2:70000/db' }),
    (error) => error instanceof ConfigError && /DATABASE_URL: .*70000/.test(error.message),
  );
  assert.equal(
    loadConfig({ DATABASE_URL: 'postgres://u@h1,h2/db?target_session_attrs=read-write' }).databaseUrl,
    'postgres://u@h1,h2/db?target_session_attrs=read-write',
  );
});
