import { parentPort, workerData } from 'node:worker_threads';
import { OfficialValidator, type ValidationReport } from './official-validator.js';
import type { StylesheetName, XsdSet } from './standards.js';

/** A worker thread of the validation pool: one validator, its stylesheets parsed once and kept warm. */

export interface WorkerData {
  compiled: Partial<Record<StylesheetName, string>>;
  ruleSet: string;
  xsd?: XsdSet;
  xsdByRoot?: XsdSet[];
}

/** A batch of documents: the stylesheets run once over all of them (official-validator.ts). */
export type WorkerRequest = { id: number; xmls: string[]; only?: (StylesheetName[] | null)[] };
export type WorkerOutcome = { report: ValidationReport } | { error: string };
export type WorkerResponse = { id: number; outcomes: WorkerOutcome[] } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('validation-worker.ts runs as a worker thread');

const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

const validator = await OfficialValidator.open(workerData as WorkerData);
port.on('message', (request: WorkerRequest) => {
  validator.validateBatch(request.xmls, request.only).then(
    (outcomes) =>
      port.postMessage({
        id: request.id,
        outcomes: outcomes.map((outcome) => ('report' in outcome ? outcome : { error: describe(outcome.error) })),
      } satisfies WorkerResponse),
    (error: unknown) => port.postMessage({ id: request.id, error: describe(error) } satisfies WorkerResponse),
  );
});
port.postMessage('ready');
