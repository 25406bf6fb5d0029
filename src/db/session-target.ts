import pg from 'pg';
import { oneHostUrl, type DatabaseHost, type HostList, type SessionTarget } from './host-list.js';

/**
 * libpq's host choice for node-postgres, through the pool's documented `Client` option: each new
 * connection goes to the first host of the list, in order, that connects and whose session the
 * target accepts (`read-write`: `transaction_read_only` off; `primary`: not in recovery; `any`:
 * the first that connects). The host found is remembered by the pool, so that a connection costs
 * one attempt while it holds; a connection that fails or drops, or a session that turned
 * read-only (the old primary after a failover), forgets it, and the next connection tries the
 * list again from its first host. Every connection of the pool goes through it, the listeners of
 * NOTIFY (key cache, claim loops) too: they follow the primary when they reconnect.
 */

const describe = ({ host, port }: DatabaseHost) => `${host}:${port}`;

/** Whether the session of `client` is one `target` keeps. */
export async function sessionFits(client: pg.ClientBase, target: SessionTarget): Promise<boolean> {
  if (target === 'any') return true;
  if (target === 'primary') {
    const { rows } = await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
    return rows[0]?.standby === false;
  }
  const { rows } = await client.query<{ transaction_read_only: string }>('show transaction_read_only');
  return rows[0]?.transaction_read_only === 'off';
}

/**
 * The index of the first host, in order, for which `attempt` says yes; a host whose attempt
 * fails (it does not connect) or says no (a standby) passes to the next. None: an error that
 * names each host and why.
 */
export async function chooseHost(
  hosts: readonly DatabaseHost[],
  target: SessionTarget,
  attempt: (host: DatabaseHost) => Promise<boolean>,
): Promise<number> {
  const refusals: string[] = [];
  for (const [index, host] of hosts.entries()) {
    try {
      if (await attempt(host)) return index;
      refusals.push(`${describe(host)} is not ${target} (a standby or a read-only server)`);
    } catch (error) {
      refusals.push(`${describe(host)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(`no database server is reachable as ${target}: ${refusals.join('; ')}`);
}

/** How long one host's attempt may take: a host that drops packets must not hold the others back. */
const attemptTimeoutMs = 5_000;

/** A throwaway connection to `url`: does its session fit `target`? */
async function probe(config: pg.ClientConfig, url: string, target: SessionTarget): Promise<boolean> {
  const client = new pg.Client({ ...config, connectionString: url, connectionTimeoutMillis: attemptTimeoutMs });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await sessionFits(client, target);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The pool's `Client`: every connection of the pool to the host `list` chooses, from `url`'s list. */
export function hostChoosingClient(url: string, list: HostList): typeof pg.Client {
  const urls = list.hosts.map((host) => oneHostUrl(url, host));
  // Shared by the pool's connections: the host in use, or the choice under way (one at a time).
  let chosen: number | null = null;
  let choosing: Promise<number> | null = null;
  const forget = (index: number) => {
    if (chosen === index) chosen = null;
  };

  return class HostChoosingClient extends pg.Client {
    private readonly settings: pg.ClientConfig;
    /** True once the pool (or a failed check) ends this connection itself: not a drop. */
    private ending = false;

    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionString: urls[chosen ?? 0] });
      this.settings = config;
    }

    private choice(): Promise<number> {
      if (chosen !== null) return Promise.resolve(chosen);
      choosing ??= chooseHost(list.hosts, list.target, (host) =>
        probe(this.settings, urls[list.hosts.indexOf(host)]!, list.target),
      ).finally(() => {
        choosing = null;
      });
      return choosing;
    }

    private async connectToChoice(): Promise<void> {
      const index = await this.choice();
      // The chosen host may differ from the one this client was made for: read at connect.
      this.host = list.hosts[index]!.host;
      this.port = list.hosts[index]!.port;
      try {
        await super.connect();
        if (!(await sessionFits(this, list.target))) {
          await this.end().catch(() => undefined);
          throw new Error(`${describe(list.hosts[index]!)} is no longer ${list.target} (a failover?)`);
        }
      } catch (error) {
        forget(index);
        throw error;
      }
      chosen = index;
      // A connection that drops (its server stopped, or demoted) makes the next one choose again.
      this.on('error', () => forget(index));
      this.on('end', () => {
        if (!this.ending) forget(index);
      });
    }

    override end(): Promise<void>;
    override end(callback: (err: Error) => void): void;
    override end(callback?: (err: Error) => void): Promise<void> | void {
      this.ending = true;
      return callback ? super.end(callback) : super.end();
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error | null, client?: pg.Client) => void): void;
    override connect(callback?: (err: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
      const connected = this.connectToChoice().then(() => this);
      if (!callback) return connected;
      connected.then(
        (client) => callback(null, client),
        (error: Error) => callback(error),
      );
    }
  };
}
