/** The part of autocannon 9's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';
  import type { ConnectionOptions } from 'node:tls';

  namespace autocannon {
    interface RequestData {
      method: string;
      path: string;
      headers: Record<string, string>;
      body?: string | Buffer;
      [other: string]: unknown;
    }

    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData | null | undefined;
      onResponse?: (
        status: number,
        body: string,
        context: Record<string, unknown>,
        headers: Record<string, string>,
      ) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      pipelining?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
      tlsOptions?: ConnectionOptions;
      servername?: string;
      title?: string;
      excludeErrorStats?: boolean;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      sent?: number;
      p50: number;
      p90: number;
      p99: number;
      [percentile: string]: number | undefined;
    }

    interface Result {
      title?: string;
      url: string;
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      start: Date;
      finish: Date;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
      catch(onRejected: (error: unknown) => unknown): Promise<unknown>;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
