/** The folder of the current build (it holds `src/`, `bench/` and `drizzle/`), built if need be. */
export function ensureBuild(): Promise<string>;
