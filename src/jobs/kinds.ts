import { grants } from '../kernel/scopes.js';
import { customersImportJob } from '../customers/service.js';
import type { JobKind } from './job-kind.js';

/** Every kind of job, by name: the worker runs them, `GET /v1/jobs/:id` reads them. */
export const jobKinds: Record<string, JobKind> = {
  [customersImportJob.kind]: customersImportJob,
};

/** Whether a key with these scopes may read a job of this kind (an unknown kind: only a key without scopes). */
export function mayReadJob(keyScopes: readonly string[] | null, kind: string): boolean {
  return grants(keyScopes, jobKinds[kind]?.readAccess ?? 'full_access');
}
