/** CalVer versions (Versioning section): only these are served, and an unknown one is refused. */
export const servedVersions = ['2026-09-01'] as const;
export const currentVersion = servedVersions[servedVersions.length - 1]!;
