import { compileEstimateSeconds, compileValidators, validatorsToCompile } from '../einvoice/validation-pool.js';

/** `95 s`, `4 min 10 s`: a duration a person reads at a glance. */
export function readableDuration(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  if (whole < 90) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  return whole % 60 === 0 ? `${minutes} min` : `${minutes} min ${whole % 60} s`;
}

/**
 * At the start of `facteur serve`: when the one cache lacks a validator (an install whose
 * `npm ci` did not compile them, or a stylesheet changed since), one line says they are being
 * compiled and roughly for how long, and one more when they are, with the time it took. The
 * compilation runs beside the start: the first document that needs it joins it (sef-cache.ts
 * compiles each stylesheet once per process). Resolves once the check is done, with the
 * compilation under way (null when there is none); its `done` never rejects (a failure is said,
 * and the first document compiles again).
 */
export async function compileValidatorsAtStart(
  cacheDir: string,
  write: (line: string) => void,
): Promise<{ done: Promise<void> } | null> {
  const missing = await validatorsToCompile(cacheDir);
  if (missing.length === 0) return null;
  write(
    `facteur: compiling the official validators into ${cacheDir} (${missing.join(', ')}; about ${readableDuration(compileEstimateSeconds(missing))}, once): the first Factur-X waits for them`,
  );
  const started = performance.now();
  const done = compileValidators(cacheDir).then(
    () =>
      write(
        `facteur: the official validators are compiled, in ${readableDuration((performance.now() - started) / 1000)}`,
      ),
    (error: unknown) =>
      write(
        `facteur: the official validators did not compile (${error instanceof Error ? error.message : String(error)}); the first document that needs them tries again`,
      ),
  );
  return { done };
}
