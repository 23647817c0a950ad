/**
 * A local cache of fetched threads: a thread fetched once opens again without network,
 * and a refresh merges new replies into it without duplicating what was there.
 *
 * Layout: `<cacheDir>/<readable id>-<hash>.mbox` (the thread, mboxrd) and a `.json`
 * beside it (where it came from and when).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FetchOptions, fetchThread } from './client';
import { LoreError } from './http';
import { mergeMboxes, splitEntries } from './mboxrd';
import { DEFAULT_PUBLIC_INBOX, normalizeBase } from './msgid';

export interface CacheMeta {
  messageId: string;
  url: string;
  fetchedAt: string;
  messages: number;
}

export interface CachedThread extends CacheMeta {
  /** The cached mbox file. */
  path: string;
  /** True when no request was made (the thread was served from the cache). */
  fromCache: boolean;
  /** Message-IDs that this call added to the cached thread (all of them on a first fetch). */
  added: string[];
}

export interface ThreadCacheOptions extends FetchOptions {
  /** Where cached threads live; default `$XDG_CACHE_HOME/kernel-review/lore` (or `~/.cache/…`). */
  cacheDir?: string;
  /** Fetch again even when cached, merging new messages in. */
  refresh?: boolean;
}

/** The default cache folder for the command line. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(root, 'kernel-review', 'lore');
}

/** The cache file (without extension) for a Message-ID: readable, and unique by hash. */
export function cacheStem(cacheDir: string, id: string): string {
  const readable = id.replace(/[^A-Za-z0-9_.]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 80) || 'message';
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 12);
  return path.join(cacheDir, `${readable}-${hash}`);
}

async function readCached(stem: string): Promise<{ meta: CacheMeta; mbox: Buffer } | null> {
  try {
    const [metaText, mbox] = await Promise.all([fs.readFile(`${stem}.json`, 'utf8'), fs.readFile(`${stem}.mbox`)]);
    return { meta: JSON.parse(metaText) as CacheMeta, mbox };
  } catch {
    return null;
  }
}

async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

/**
 * The thread `id` belongs to, as a local mbox file: from the cache when it is there
 * (unless `refresh`), otherwise fetched and stored; a refresh merges new messages in.
 */
export async function cachedThread(id: string, opts: ThreadCacheOptions = {}): Promise<CachedThread> {
  const cacheDir = opts.cacheDir ?? defaultCacheDir();
  const stem = cacheStem(cacheDir, id);
  const cached = await readCached(stem);
  if (cached && !opts.refresh) {
    return { ...cached.meta, path: `${stem}.mbox`, fromCache: true, added: [] };
  }
  const base = normalizeBase(opts.base ?? DEFAULT_PUBLIC_INBOX);
  const fetched = await fetchThread(id, { ...opts, base });
  const merged = cached
    ? mergeMboxes(cached.mbox, fetched.mbox)
    : mergeMboxes(Buffer.alloc(0), fetched.mbox);
  if (merged.total === 0) throw new LoreError('bad-response', `${new URL(fetched.url).host} sent an empty thread for <${id}>`);
  const meta: CacheMeta = {
    messageId: id,
    url: fetched.url,
    fetchedAt: new Date().toISOString(),
    messages: merged.total,
  };
  await fs.mkdir(cacheDir, { recursive: true });
  await writeAtomic(`${stem}.mbox`, merged.mbox);
  await writeAtomic(`${stem}.json`, `${JSON.stringify(meta, null, 2)}\n`);
  return {
    ...meta,
    path: `${stem}.mbox`,
    fromCache: false,
    added: merged.added.filter((m): m is string => m !== null),
  };
}

/** Fetches the thread again and merges new messages into the cached copy. */
export function refreshThread(id: string, opts: ThreadCacheOptions = {}): Promise<CachedThread> {
  return cachedThread(id, { ...opts, refresh: true });
}

/** The cached copy of a thread, if any, without touching the network. */
export async function peekCachedThread(id: string, cacheDir: string = defaultCacheDir()): Promise<CachedThread | null> {
  const stem = cacheStem(cacheDir, id);
  const cached = await readCached(stem);
  if (!cached) return null;
  return { ...cached.meta, messages: splitEntries(cached.mbox).length, path: `${stem}.mbox`, fromCache: true, added: [] };
}
