import { readFileSync } from 'node:fs';
import { AfnorConnector, type AfnorConnectorOptions } from '../../src/platform/afnor-connector.js';
import { afnorDocuments } from '../../src/platform/openapi-validator.js';
import { PlatformSimulator, type Exchange, type SimulatorOptions } from '../../src/pa-simulator/simulator.js';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import { sampleInvoice } from '../einvoice/support.js';

/**
 * The simulator over real HTTPS (the suite's receiver certificate, trusted through
 * NODE_EXTRA_CA_CERTS), every exchange checked against the AFNOR OpenAPI documents both ways.
 */

const documents = afnorDocuments();

export interface CheckedSimulator {
  simulator: PlatformSimulator;
  url: string;
  exchanges: Exchange[];
  /** The exchanges that break their OpenAPI document (request or answer), as readable lines. */
  violations(): string[];
  connector(options?: Partial<AfnorConnectorOptions>): AfnorConnector & { sleeps: number[] };
  stop(): Promise<void>;
}

export function exchangeViolations(exchange: Exchange): string[] {
  if (exchange.service === 'callback')
    return documents.flow.checkSchema('Flow', exchange.requestBody).map((problem) => `callback ${problem}`);
  const document =
    exchange.service === 'flow' ? documents.flow : exchange.service === 'directory' ? documents.directory : null;
  if (!document) return [];
  const where = `${exchange.method} ${exchange.path.split('?')[0]} → ${exchange.status}`;
  return [
    ...document
      .checkRequest({
        method: exchange.method,
        path: exchange.path,
        headers: exchange.requestHeaders,
        body: exchange.requestBody,
      })
      .map((problem) => `${where}: request ${problem}`),
    ...document
      .checkResponse({
        method: exchange.method,
        path: exchange.path,
        status: exchange.status,
        contentType: exchange.contentType,
        body: exchange.responseBody,
      })
      .map((problem) => `${where}: ${problem}`),
  ];
}

export async function startCheckedSimulator(options: Partial<SimulatorOptions> = {}): Promise<CheckedSimulator> {
  const exchanges: Exchange[] = [];
  const simulator = new PlatformSimulator({
    tls: {
      cert: readFileSync(process.env.FACTEUR_TEST_RECEIVER_CERT!, 'utf8'),
      key: readFileSync(process.env.FACTEUR_TEST_RECEIVER_KEY!, 'utf8'),
    },
    callbackRetryDelaysMs: [20, 50],
    ...options,
    observe: (exchange) => exchanges.push(exchange),
  });
  const url = await simulator.start();
  const connectors: AfnorConnector[] = [];
  return {
    simulator,
    url,
    exchanges,
    violations: () => exchanges.flatMap(exchangeViolations),
    connector: (extra = {}) => {
      const sleeps: number[] = [];
      const connector = new AfnorConnector({
        connection: { baseUrl: url, ...simulator.clients[0]! },
        // The retry table's waits are recorded, not slept: the suite stays fast.
        sleep: async (ms) => {
          sleeps.push(ms);
        },
        ...extra,
      });
      connectors.push(connector);
      return Object.assign(connector, { sleeps });
    },
    stop: async () => {
      await Promise.all(connectors.map((connector) => connector.close()));
      await simulator.stop();
    },
  };
}

let sequence = 0;
/** A unique invoice number for this test process. */
export function invoiceNumber(): string {
  sequence += 1;
  return `F2026-${String(process.pid % 1000).padStart(3, '0')}${String(sequence).padStart(4, '0')}`;
}

/** The CII of the sample invoice under that number. */
export function ciiFile(number: string): Buffer {
  return Buffer.from(writeCii(sampleInvoice({ number })));
}
