/**
 * The part of autocannon 9 the benchmarks use. autocannon ships no types and DefinitelyTyped's
 * @types/autocannon stops at major 7, whose options differ: these few shapes are checked here instead.
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Rewrites the request before it is sent; `context` lives as long as the connection. */
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      requests?: Request[];
    }

    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p97_5: number;
      p99: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      /** Seconds the run lasted. */
      duration: number;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
