/**
 * public-inbox search: `<base>?q=<query>&x=m` answers with a gzipped mbox of the
 * matching messages. Current public-inbox serves the mbox only to POST (a GET gets
 * the HTML results page), so POST is tried first and GET only if POST is refused.
 */
import { DEFAULT_MAX_BYTES, LoreError, httpRequest } from './http';
import { gunzipCapped } from './client';
import { FetchOptions } from './client';
import { MboxEntry, splitEntries } from './mboxrd';
import { DEFAULT_PUBLIC_INBOX, hostOf, normalizeBase, searchUrl } from './msgid';

export interface SearchOptions extends FetchOptions {
  /** Include the whole thread of every match (`t=1`). */
  threads?: boolean;
}

export interface SearchResult {
  /** The matching messages as an mboxrd (empty when nothing matched). */
  mbox: Buffer;
  /** The messages in it, in the server's order (newest first on public-inbox). */
  entries: MboxEntry[];
  url: string;
}

function isGzip(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
}

/** Runs a public-inbox query (Xapian syntax: `s:subject`, `f:from`, `dfn:file`, …). */
export async function searchMbox(query: string, opts: SearchOptions = {}): Promise<SearchResult> {
  if (!query.trim()) throw new LoreError('bad-response', 'the search query is empty');
  const base = normalizeBase(opts.base ?? DEFAULT_PUBLIC_INBOX);
  const url = searchUrl(base, query, opts.threads);
  const host = hostOf(base);
  let res = await httpRequest(url, { ...opts, method: 'POST' });
  if (res.status === 405 || res.status === 501) res = await httpRequest(url, { ...opts, method: 'GET' });
  // public-inbox answers 404 "No results found" for an empty result set.
  if (res.status === 404 && /^text\/plain/.test(res.contentType) && /no results/i.test(res.body.toString('latin1'))) {
    return { mbox: Buffer.alloc(0), entries: [], url: res.url };
  }
  if (res.status === 404) throw new LoreError('not-found', `${host} has no inbox at ${base}`, 404);
  if (res.status < 200 || res.status >= 300) {
    throw new LoreError('http', `${host} answered HTTP ${res.status} to the search`, res.status);
  }
  if (!isGzip(res.body)) {
    throw new LoreError('bad-response', `${host} did not send an mbox of search results (got ${res.contentType || 'no content type'}; is search enabled there?)`);
  }
  const mbox = await gunzipCapped(res.body, opts.maxBytes ?? DEFAULT_MAX_BYTES, host);
  return { mbox, entries: splitEntries(mbox), url: res.url };
}
