/**
 * The wait before the try `attempt` (from 0) of a listener of NOTIFY to connect again: 1 s, 2 s,
 * 4 s... up to 30 s. A failover takes from seconds to a minute; a node must neither hammer the
 * servers meanwhile nor stay deaf long after the new primary answers.
 */
export const reconnectDelayMs = (attempt: number): number => Math.min(30_000, 1000 * 2 ** attempt);
