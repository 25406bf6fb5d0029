/**
 * Compiles every stylesheet of the registry that the installation's cache (`build/validators/`)
 * lacks; `say` hears the two lines it prints (stdout by default).
 */
export function compileInstalledValidators(
  say?: (line: string) => void,
): Promise<{ cacheDir: string; compiled: string[] }>;
