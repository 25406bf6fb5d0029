/**
 * A libpq connection URI that names several servers, as a failover setup gives it:
 * `postgres://user:pass@h1:5432,h2:5433/db?target_session_attrs=read-write`. node-postgres takes
 * one host per URL; this reads the list and writes, for each host, the one-host URL a connection
 * attempt to it uses (everything else of the URL kept: credentials, database, ssl, options).
 */

/** What a connection must be for the service to keep it (libpq's `target_session_attrs`). */
export type SessionTarget = 'any' | 'read-write' | 'primary';

export interface DatabaseHost {
  /** A name, an address (IPv6 without its brackets) or a Unix-domain socket directory (`/var/run/postgresql`). */
  host: string;
  port: number;
}

export interface HostList {
  hosts: DatabaseHost[];
  target: SessionTarget;
  /** The login (percent-decoded; empty when the URL names none). */
  user: string;
}

export class HostListError extends Error {}

const defaultPort = 5432;
const targets: readonly SessionTarget[] = ['any', 'read-write', 'primary'];
const uri = /^(postgres(?:ql)?:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?$/;

function decoded(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HostListError(`the database URL's ${what} is not valid percent-encoding: "${text}".`);
  }
}

function portOf(text: string, fallback: number): number {
  if (text === '') return fallback;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535)
    throw new HostListError(`the database URL names port "${text}": a port is 1 to 65535.`);
  return port;
}

/** `h`, `h:5433`, `[::1]:5433`, `%2Fvar%2Frun%2Fpostgresql:5432`; an empty host is localhost. */
function hostOf(spec: string, fallbackPort: number): DatabaseHost {
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(spec);
  if (bracketed) return { host: bracketed[1]!, port: portOf(bracketed[2] ?? '', fallbackPort) };
  const colon = spec.lastIndexOf(':');
  const name = colon === -1 ? spec : spec.slice(0, colon);
  const port = colon === -1 ? '' : spec.slice(colon + 1);
  return { host: decoded(name, 'host') || 'localhost', port: portOf(port, fallbackPort) };
}

/** The parts of a URL in libpq's syntax; `?host=` and `?port=` lists (libpq's other spelling) count too. */
export function parseHostList(url: string): HostList {
  const parts = uri.exec(url);
  if (!parts)
    throw new HostListError(
      'the database URL must be postgres://[user[:password]@]host[:port][,host[:port]...]/database[?...].',
    );
  const authority = parts[2]!;
  const at = authority.lastIndexOf('@');
  const userInfo = at === -1 ? '' : authority.slice(0, at);
  const hostSpecs = (at === -1 ? authority : authority.slice(at + 1)).split(',');
  const query = new URLSearchParams(parts[4] ?? '');
  const queryPorts = (query.get('port') ?? '').split(',').filter((port) => port !== '');
  const queryHosts = (query.get('host') ?? '').split(',').filter((host) => host !== '');
  // One port for all, or one per host (libpq).
  const portAt = (i: number) => portOf(queryPorts.length === 1 ? queryPorts[0]! : (queryPorts[i] ?? ''), defaultPort);
  const hosts =
    queryHosts.length > 0
      ? queryHosts.map((host, i) => ({ host, port: portAt(i) }))
      : hostSpecs.map((spec, i) => hostOf(spec, portAt(i)));
  const target = (query.get('target_session_attrs') ?? 'any') as SessionTarget;
  if (!targets.includes(target))
    throw new HostListError(
      `target_session_attrs=${target} is not supported: any, read-write or primary (the service writes; it never wants a standby).`,
    );
  const colon = userInfo.indexOf(':');
  return { hosts, target, user: decoded(colon === -1 ? userInfo : userInfo.slice(0, colon), 'user') };
}

/** True when the URL needs the service's own host choice: node-postgres alone takes one host and no target. */
export function needsHostChoice(list: HostList): boolean {
  return list.hosts.length > 1 || list.target !== 'any';
}

/** How a host is written in a one-host URL: a socket directory percent-encoded, an IPv6 address in brackets. */
function hostSpecOf({ host, port }: DatabaseHost): string {
  const name = host.includes('/') ? encodeURIComponent(host) : host.includes(':') ? `[${host}]` : host;
  return `${name}:${port}`;
}

/** `url` naming `host` alone, without the host list's own parameters (node-postgres reads the rest). */
export function oneHostUrl(url: string, host: DatabaseHost): string {
  const parts = uri.exec(url);
  if (!parts) throw new HostListError('the database URL is not a postgres:// URL.');
  const authority = parts[2]!;
  const at = authority.lastIndexOf('@');
  const query = new URLSearchParams(parts[4] ?? '');
  for (const name of ['host', 'port', 'target_session_attrs']) query.delete(name);
  const rest = query.toString();
  return `${parts[1]}${at === -1 ? '' : authority.slice(0, at + 1)}${hostSpecOf(host)}${parts[3]}${rest ? `?${rest}` : ''}`;
}
