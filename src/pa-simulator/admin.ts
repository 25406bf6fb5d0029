import type { DirectoryLineSeed } from './directory.js';
import { imperfectionOf, ReportRefused, type ReportedStatusInput } from './flow-service.js';
import type { SimulatorClient } from './oauth.js';
import type { Scenario } from './scenario.js';
import { errorBody, type RawReply, type RawRequest } from './server.js';
import type { SimulatorStats } from './stats.js';
import type { LifecycleStatusCode } from '../platform/cdar.js';

/**
 * The simulator's own admin interface (`/simulator/...`, behind its admin bearer): what the
 * in-process interface does, over HTTP, for a simulator that runs as a program of its own.
 */

/** What the admin routes act on: the simulator's in-process interface. */
export interface SimulatorControls {
  readonly clients: readonly SimulatorClient[];
  stats(): SimulatorStats;
  script(invoiceNumber: string, scenario: Scenario): void;
  seedDirectory(lines: readonly DirectoryLineSeed[]): void;
  /** The number of directory lines it holds. */
  directorySize(): number;
  deliverIncoming(file: Buffer, options: { clientId?: string; name?: string }): string;
  report(clientId: string, trackingId: string, input: ReportedStatusInput): string;
  revokeTokens(): void;
  reset(): void;
}

type AdminBody = Record<string, unknown>;

const routeList =
  'admin routes: GET /simulator/stats, POST /simulator/scenarios, /simulator/statuses, /simulator/directory, /simulator/incoming, /simulator/revoke-tokens, /simulator/reset';

export class AdminService {
  constructor(
    private readonly adminToken: string,
    private readonly simulator: SimulatorControls,
  ) {}

  handle(request: RawRequest): RawReply {
    let body: AdminBody = {};
    try {
      body = request.body.length > 0 ? (JSON.parse(request.body.toString('utf8')) as AdminBody) : {};
    } catch {
      return { requestBody: undefined, status: 400, body: errorBody('INVALID_REQUEST', 'the body is not JSON') };
    }
    const answer = (status: number, value?: unknown): RawReply => ({ requestBody: body, status, body: value });
    if (request.headers.authorization !== `Bearer ${this.adminToken}`)
      return answer(401, errorBody('INVALID_TOKEN', 'the admin token is required'));
    const [status, value] = this.route(`${request.method} ${request.url.split('?')[0]}`, body);
    return answer(status, value);
  }

  /** The admin route's status and answer. */
  private route(route: string, body: AdminBody): [number, unknown] {
    const simulator = this.simulator;
    switch (route) {
      case 'GET /simulator/stats':
        return [200, simulator.stats()];
      case 'POST /simulator/scenarios':
        return this.scenarios(body);
      case 'POST /simulator/directory':
        simulator.seedDirectory((body.lines ?? []) as DirectoryLineSeed[]);
        return [201, { lines: simulator.directorySize() }];
      case 'POST /simulator/incoming':
        return this.incoming(body);
      case 'POST /simulator/statuses':
        return this.statuses(body);
      case 'POST /simulator/revoke-tokens':
        simulator.revokeTokens();
        return [200, { revoked: true }];
      case 'POST /simulator/reset':
        simulator.reset();
        return [200, { reset: true }];
      default:
        return [404, errorBody('MISSING_RESOURCE', routeList)];
    }
  }

  /** `{ scenarios: { number: scenario } }`, or one `{ invoiceNumber, scenario }`. */
  private scenarios(body: AdminBody): [number, unknown] {
    const scenarios = (body.scenarios ??
      (body.invoiceNumber ? { [String(body.invoiceNumber)]: body.scenario ?? {} } : {})) as Record<string, Scenario>;
    for (const [number, scenario] of Object.entries(scenarios)) this.simulator.script(number, scenario);
    return [201, { scripted: Object.keys(scenarios) }];
  }

  private incoming(body: AdminBody): [number, unknown] {
    if (typeof body.file !== 'string' || body.file === '')
      return [400, errorBody('INVALID_REQUEST', '`file` (base64) is required')];
    const flowId = this.simulator.deliverIncoming(Buffer.from(body.file, 'base64'), {
      ...(typeof body.clientId === 'string' ? { clientId: body.clientId } : {}),
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
    });
    return [201, { flowId }];
  }

  private statuses(body: AdminBody): [number, unknown] {
    if (typeof body.trackingId !== 'string' || typeof body.status !== 'string')
      return [400, errorBody('INVALID_REQUEST', '`trackingId` and `status` are required')];
    const input: ReportedStatusInput = {
      status: body.status.replace(/^fr:/, '') as LifecycleStatusCode,
      reason: (body.reason ?? null) as ReportedStatusInput['reason'],
      notes: Array.isArray(body.notes) ? body.notes.map(String) : [],
      ...(body.conformant === false ? { conformant: false } : {}),
    };
    try {
      const flowId = this.simulator.report(
        typeof body.clientId === 'string' ? body.clientId : this.simulator.clients[0]!.clientId,
        body.trackingId,
        input,
      );
      const imperfection = imperfectionOf(input);
      if (imperfection === null) return [201, { flowId }];
      return [
        201,
        {
          flowId,
          conformant: false,
          note: `not a conformant CDAR (${imperfection}): played as a platform would send it imperfectly`,
        },
      ];
    } catch (error) {
      if (!(error instanceof ReportRefused)) throw error;
      return error.reason === 'unknown_flow'
        ? [404, errorBody('MISSING_RESOURCE', error.message)]
        : [400, errorBody('INVALID_REQUEST', error.message)];
    }
  }
}
