/**
 * The sandbox clock: test-mode scheduling (webhook retries, overdue invoices, reservation expiry,
 * recurring runs) reads real time plus the company's offset; live data always reads real time.
 */
export function scopeTime(realNow: Date, livemode: boolean, sandboxOffsetMs: number): Date {
  return livemode || sandboxOffsetMs === 0 ? realNow : new Date(realNow.getTime() + sandboxOffsetMs);
}
