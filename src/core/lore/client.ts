/**
 * Fetching threads and single messages from a public-inbox server (lore.kernel.org or any
 * other instance): `<base><msgid>/t.mbox.gz` and `<base><msgid>/raw`.
 */
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { DEFAULT_MAX_BYTES, HttpOptions, HttpResponse, LoreError, httpRequest } from './http';
import { hostOf, normalizeBase, rawUrl, threadUrl } from './msgid';

export { LoreError } from './http';

export interface FetchOptions extends Omit<HttpOptions, 'method' | 'maxRedirects'> {
  /** Inbox base URL; default lore's `all`. */
  base?: string;
}

export interface Fetched {
  /** The mbox (mboxrd, as public-inbox writes it), decompressed. */
  mbox: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

const gunzip = promisify(zlib.gunzip) as (buf: Buffer, opts: zlib.ZlibOptions) => Promise<Buffer>;

/** Gunzips a public-inbox answer, refusing output over `maxBytes` (a gzip bomb). */
export async function gunzipCapped(body: Buffer, maxBytes: number, host: string): Promise<Buffer> {
  try {
    return await gunzip(body, { maxOutputLength: maxBytes });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
      throw new LoreError('too-large', `${host} sent a thread larger than ${maxBytes} bytes once decompressed`);
    }
    throw new LoreError('bad-response', `${host} sent a damaged gzip file`);
  }
}

function isGzip(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

function looksLikeMail(b: Buffer): boolean {
  const head = b.subarray(0, 200).toString('latin1');
  return /^From /.test(head) || /^[A-Za-z0-9-]+:[ \t]/.test(head);
}

function notFound(id: string, base: string): LoreError {
  return new LoreError('not-found', `no message <${id}> on ${hostOf(base)}`, 404);
}

function checkStatus(res: HttpResponse, id: string, base: string): void {
  if (res.status === 404 || res.status === 410) throw notFound(id, base);
  if (res.status < 200 || res.status >= 300) {
    throw new LoreError('http', `${new URL(res.url).host} answered HTTP ${res.status} for <${id}>`, res.status);
  }
}

/** Fetches the whole thread that `id` (without angle brackets) belongs to. */
export async function fetchThread(id: string, opts: FetchOptions = {}): Promise<Fetched> {
  const base = normalizeBase(opts.base ?? 'https://lore.kernel.org/all/');
  const res = await httpRequest(threadUrl(base, id), { ...opts, method: 'GET' });
  checkStatus(res, id, base);
  const host = new URL(res.url).host;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let mbox: Buffer;
  if (isGzip(res.body)) mbox = await gunzipCapped(res.body, maxBytes, host);
  else if (looksLikeMail(res.body)) mbox = res.body; // a proxy that already decompressed it
  else throw new LoreError('bad-response', `${host} did not send an mbox for <${id}> (got ${res.contentType || 'no content type'})`);
  if (mbox.length === 0) throw notFound(id, base);
  return { mbox, url: res.url };
}

/** Fetches one message as stored (`/raw`), as an mboxrd with one `From mboxrd@z` line. */
export async function fetchMessage(id: string, opts: FetchOptions = {}): Promise<Fetched> {
  const base = normalizeBase(opts.base ?? 'https://lore.kernel.org/all/');
  const res = await httpRequest(rawUrl(base, id), { ...opts, method: 'GET' });
  checkStatus(res, id, base);
  const host = new URL(res.url).host;
  const body = isGzip(res.body) ? await gunzipCapped(res.body, opts.maxBytes ?? DEFAULT_MAX_BYTES, host) : res.body;
  if (!looksLikeMail(body)) {
    throw new LoreError('bad-response', `${host} did not send a mail for <${id}> (got ${res.contentType || 'no content type'})`);
  }
  return { mbox: toMboxrd(body), url: res.url };
}

/** A lone message as an mboxrd entry (public-inbox's `/raw` may or may not carry a `From ` line). */
function toMboxrd(body: Buffer): Buffer {
  if (body.subarray(0, 5).toString('latin1') === 'From ') return body;
  const text = body.toString('latin1').replace(/^(>*From )/gm, '>$1');
  const end = text.endsWith('\n') ? '' : '\n';
  return Buffer.from(`From mboxrd@z Thu Jan  1 00:00:00 1970\n${text}${end}`, 'latin1');
}
