/**
 * Lets every command take a Message-ID or a lore / patch.msgid.link URL wherever it takes
 * a mail file: such inputs become the path of the cached thread (fetched on first use).
 */
import { promises as fs } from 'node:fs';
import { cachedThread } from './cache';
import { baseFor, parseMessageRef } from './msgid';

export interface ResolveOptions {
  /** Inbox for bare Message-IDs; URLs use the inbox they name. Default lore's `all`. */
  publicInbox?: string;
  cacheDir?: string;
  signal?: AbortSignal;
  /** Fetch again even when cached (merging new replies in). */
  refresh?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}

/** True when `input` is not a file (or `-`) and reads as a Message-ID or a message URL. */
export async function isRemoteInput(input: string): Promise<boolean> {
  if (input === '-' || (await exists(input))) return false;
  try {
    return parseMessageRef(input) !== null;
  } catch {
    return true; // a URL that names no message: resolveInputs says so
  }
}

/**
 * Replaces each input that is a Message-ID or message URL (and not an existing file) by
 * the path of its thread in the local cache; other inputs are returned unchanged.
 */
export async function resolveInputs(inputs: string[], opts: ResolveOptions = {}): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    if (!(await isRemoteInput(input))) {
      out.push(input);
      continue;
    }
    const ref = parseMessageRef(input);
    if (!ref) {
      out.push(input);
      continue;
    }
    const thread = await cachedThread(ref.id, {
      base: baseFor(ref, opts.publicInbox),
      cacheDir: opts.cacheDir,
      signal: opts.signal,
      refresh: opts.refresh,
      timeoutMs: opts.timeoutMs,
      maxBytes: opts.maxBytes,
    });
    out.push(thread.path);
  }
  return out;
}
