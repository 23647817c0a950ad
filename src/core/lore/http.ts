/**
 * A small HTTP(S) client on node's http/https: redirects, an inactivity timeout,
 * AbortSignal cancellation, a cap on the response size, and one-sentence errors.
 */
import * as http from 'node:http';
import * as https from 'node:https';

export type LoreErrorKind = 'not-found' | 'timeout' | 'network' | 'too-large' | 'http' | 'aborted' | 'bad-response';

/** A failure talking to a public-inbox server, with a message that is one sentence. */
export class LoreError extends Error {
  override name = 'LoreError';
  constructor(
    readonly kind: LoreErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface HttpOptions {
  method?: 'GET' | 'POST';
  /** Milliseconds without any progress (connect, headers or body bytes) before giving up; default 30 s. */
  timeoutMs?: number;
  /** Largest response body accepted, in bytes; default 64 MiB. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Redirects followed at most; default 5. */
  maxRedirects?: number;
}

export interface HttpResponse {
  status: number;
  /** The URL that answered, after redirects. */
  url: string;
  contentType: string;
  body: Buffer;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const USER_AGENT = 'kernel-review (public-inbox client; +https://public-inbox.org/)';

function mib(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : `${n} bytes`;
}

/** Turns a socket-level error into one sentence. */
export function networkError(e: NodeJS.ErrnoException, host: string): LoreError {
  switch (e.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new LoreError('network', `cannot resolve ${host} (are you offline?)`);
    case 'ECONNREFUSED':
      return new LoreError('network', `${host} refused the connection (is the server running?)`);
    case 'ECONNRESET':
    case 'EPIPE':
      return new LoreError('network', `${host} closed the connection before answering`);
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return new LoreError('network', `${host} cannot be reached (are you offline?)`);
    default: {
      const what = (e.message || String(e.code)).split('\n')[0];
      return new LoreError('network', `talking to ${host} failed: ${what}`);
    }
  }
}

function once(url: URL, opts: Required<Omit<HttpOptions, 'signal'>> & { signal?: AbortSignal }) {
  return new Promise<{ status: number; location?: string; contentType: string; body: Buffer }>(
    (resolve, reject) => {
      const host = url.host;
      if (opts.signal?.aborted) return reject(new LoreError('aborted', `fetching from ${host} was cancelled`));
      const lib = url.protocol === 'https:' ? https : http;
      const req = lib.request(url, {
        method: opts.method,
        headers: { 'User-Agent': USER_AGENT, Accept: '*/*', ...(opts.method === 'POST' ? { 'Content-Length': 0 } : {}) },
      });
      let settled = false;
      const fail = (err: LoreError) => {
        if (settled) return;
        settled = true;
        opts.signal?.removeEventListener('abort', onAbort);
        req.destroy();
        reject(err);
      };
      const onAbort = () => fail(new LoreError('aborted', `fetching from ${host} was cancelled`));
      req.on('error', (e) => fail(networkError(e as NodeJS.ErrnoException, host)));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      req.setTimeout(opts.timeoutMs, () =>
        fail(new LoreError('timeout', `${host} did not answer within ${opts.timeoutMs / 1000} s`)),
      );
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const contentType = String(res.headers['content-type'] ?? '');
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          settled = true;
          opts.signal?.removeEventListener('abort', onAbort);
          resolve({ status, location: res.headers.location, contentType, body: Buffer.alloc(0) });
          req.destroy();
          return;
        }
        const declared = Number(res.headers['content-length']);
        const tooLarge = () =>
          fail(new LoreError('too-large', `${host} sent more than ${mib(opts.maxBytes)}, the most accepted`));
        if (declared > opts.maxBytes) return tooLarge();
        const parts: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > opts.maxBytes) return tooLarge();
          parts.push(chunk);
        });
        res.on('error', (e) => fail(networkError(e as NodeJS.ErrnoException, host)));
        res.on('aborted', () => fail(new LoreError('network', `${host} closed the connection mid-answer`)));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          opts.signal?.removeEventListener('abort', onAbort);
          resolve({ status, contentType, body: Buffer.concat(parts) });
        });
      });
      req.end();
    },
  );
}

/**
 * Requests `url`, following redirects. Resolves for any final status (callers decide what a
 * 404 means); rejects with a LoreError for timeouts, cancellation, oversize answers and
 * network failures.
 */
export async function httpRequest(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  const opts = {
    method: options.method ?? 'GET',
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: options.maxRedirects ?? 5,
    signal: options.signal,
  };
  let current = new URL(url);
  for (let hops = 0; ; hops++) {
    const res = await once(current, opts);
    if (res.location === undefined) {
      return { status: res.status, url: current.href, contentType: res.contentType, body: res.body };
    }
    if (hops >= opts.maxRedirects) {
      throw new LoreError('http', `${current.host} redirected more than ${opts.maxRedirects} times`);
    }
    const next = new URL(res.location, current);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new LoreError('http', `${current.host} redirected to a non-HTTP address`);
    }
    if (res.status === 303) opts.method = 'GET';
    current = next;
  }
}
