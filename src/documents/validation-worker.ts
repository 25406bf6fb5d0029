import { parentPort, workerData } from 'node:worker_threads';
import { OfficialValidator, type ValidationReport } from './official-validator.js';
import type { StylesheetName, XsdSet } from './standards.js';

/** A worker thread of the validation pool: one validator, its stylesheets parsed once and kept warm. */

export interface WorkerData {
  compiled: Partial<Record<StylesheetName, string>>;
  xsd?: XsdSet;
}

export type WorkerRequest = { id: number; xml: string };
export type WorkerResponse = { id: number; report: ValidationReport } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('validation-worker.ts runs as a worker thread');

const validator = await OfficialValidator.open(workerData as WorkerData);
port.on('message', (request: WorkerRequest) => {
  validator.validate(request.xml).then(
    (report) => port.postMessage({ id: request.id, report } satisfies WorkerResponse),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies WorkerResponse),
  );
});
port.postMessage('ready');
