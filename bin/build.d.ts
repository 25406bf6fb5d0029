/**
 * The folder of the current build (it holds `src/`, `bench/` and `drizzle/`), built if need be.
 * `projectRoot` (this checkout by default) lets a test build a copy of the tree it changes.
 */
export function ensureBuild(projectRoot?: string): Promise<string>;
