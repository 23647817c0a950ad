import { promises as fs } from 'node:fs';
import { CliCommand, CliIo, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, ParsedArgs, UsageError, option } from './command';
import { cachedThread, defaultCacheDir, peekCachedThread } from '../core/lore/cache';
import { fetchMessage } from '../core/lore/client';
import { LoreError } from '../core/lore/http';
import { resolveInputs } from '../core/lore/inputs';
import { DEFAULT_PUBLIC_INBOX, MessageRefError, baseFor, hostOf, normalizeBase, requireMessageRef } from '../core/lore/msgid';
import { searchMbox } from '../core/lore/search';

/** Usage lines for the `--public-inbox` option, for every command that takes inputs. */
export const PUBLIC_INBOX_USAGE =
  '  --public-inbox <url>  public-inbox server for Message-ID inputs (default https://lore.kernel.org/all/,\n' +
  '                        or $KERNEL_REVIEW_PUBLIC_INBOX); lore URLs use the inbox they name\n';

/** The inbox for bare Message-IDs: `--public-inbox`, else $KERNEL_REVIEW_PUBLIC_INBOX, else lore. */
export function publicInboxOf(args: ParsedArgs): string | undefined {
  return option(args, 'public-inbox') ?? (process.env.KERNEL_REVIEW_PUBLIC_INBOX || undefined);
}

function cacheDirOf(args: ParsedArgs): string {
  return option(args, 'cache-dir') ?? (process.env.KERNEL_REVIEW_CACHE_DIR || defaultCacheDir());
}

function timeoutOf(args: ParsedArgs): number | undefined {
  const t = option(args, 'timeout');
  if (t === undefined) return undefined;
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout wants a number of seconds, not '${t}'`);
  return n * 1000;
}

/**
 * For the other commands: turns Message-ID / URL inputs into cached thread files
 * (`--public-inbox` chooses the server). Bad references are usage errors (exit 2).
 */
export async function resolveCliInputs(inputs: string[], args: ParsedArgs, io: CliIo): Promise<string[]> {
  try {
    return await resolveInputs(inputs, {
      publicInbox: publicInboxOf(args),
      cacheDir: cacheDirOf(args),
      signal: io.signal,
    });
  } catch (e) {
    if (e instanceof MessageRefError) throw new UsageError(e.message);
    throw e;
  }
}

/** `-o <file>` arrives among the positionals (the parser only knows `--` options). */
function splitOutput(args: ParsedArgs): { refs: string[]; output?: string } {
  const refs: string[] = [];
  let output = option(args, 'output');
  const pos = args.positional;
  for (let i = 0; i < pos.length; i++) {
    if (pos[i] === '-o') {
      if (i + 1 >= pos.length) throw new UsageError('option -o needs a file name');
      output = pos[++i];
    } else refs.push(pos[i]);
  }
  return { refs, output };
}

async function emit(mbox: Buffer, output: string | undefined, io: CliIo, summary: string): Promise<void> {
  if (output === undefined || output === '-') {
    io.stdout.write(mbox);
    return;
  }
  try {
    await fs.writeFile(output, mbox);
  } catch (e) {
    throw new LoreError('bad-response', `cannot write ${output}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  io.stdout.write(`${summary} written to ${output}\n`);
}

async function search(query: string, args: ParsedArgs, io: CliIo, output: string | undefined): Promise<number> {
  let base: string;
  try {
    base = normalizeBase(publicInboxOf(args) ?? DEFAULT_PUBLIC_INBOX);
  } catch (e) {
    io.stderr.write(`kernel-review fetch: ${(e as Error).message}\n`);
    return EXIT_BAD_INPUT;
  }
  try {
    const found = await searchMbox(query, { base, threads: args.flags.has('threads'), timeoutMs: timeoutOf(args), signal: io.signal });
    if (found.entries.length === 0) {
      io.stderr.write(`kernel-review fetch: no messages match '${query}' on ${hostOf(base)}\n`);
      return EXIT_FAILURE;
    }
    await emit(found.mbox, output, io, `${found.entries.length} messages matching '${query}' from ${hostOf(base)}`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof LoreError)) throw e;
    io.stderr.write(`kernel-review fetch: ${e.message}\n`);
    return EXIT_FAILURE;
  }
}

async function run(args: ParsedArgs, io: CliIo): Promise<number> {
  const { refs, output } = splitOutput(args);
  const query = option(args, 'search');
  if (query !== undefined) {
    if (refs.length) throw new UsageError('give either a Message-ID or --search, not both');
    return search(query, args, io, output);
  }
  if (refs.length !== 1) throw new UsageError('give one Message-ID or URL (see kernel-review fetch --help)');
  let ref;
  try {
    ref = requireMessageRef(refs[0]);
  } catch (e) {
    io.stderr.write(`kernel-review fetch: ${(e as Error).message}\n`);
    return EXIT_BAD_INPUT;
  }
  let base: string;
  try {
    base = baseFor(ref, publicInboxOf(args));
  } catch (e) {
    io.stderr.write(`kernel-review fetch: ${(e as Error).message}\n`);
    return EXIT_BAD_INPUT;
  }
  const timeoutMs = timeoutOf(args);
  const cacheDir = cacheDirOf(args);
  try {
    if (args.flags.has('message')) {
      const one = await fetchMessage(ref.id, { base, timeoutMs, signal: io.signal });
      await emit(one.mbox, output, io, `<${ref.id}> from ${one.url}`);
      return EXIT_OK;
    }
    const t = await cachedThread(ref.id, { base, cacheDir, timeoutMs, signal: io.signal, refresh: true });
    const mbox = await fs.readFile(t.path);
    await emit(mbox, output, io, `${t.messages} messages (${t.added.length} new) from ${t.url}`);
    return EXIT_OK;
  } catch (e) {
    if (!(e instanceof LoreError)) throw e;
    const offline = e.kind === 'network' || e.kind === 'timeout';
    const cached = offline && !args.flags.has('message') ? await peekCachedThread(ref.id, cacheDir) : null;
    if (cached) {
      io.stderr.write(`kernel-review fetch: ${e.message}; using the copy cached ${cached.fetchedAt}\n`);
      await emit(await fs.readFile(cached.path), output, io, `${cached.messages} cached messages`);
      return EXIT_OK;
    }
    io.stderr.write(`kernel-review fetch: ${e.message}\n`);
    return EXIT_FAILURE;
  }
}

export const fetchCommand: CliCommand = {
  name: 'fetch',
  summary: 'fetch a thread from lore.kernel.org or another public-inbox server',
  usage:
    'usage: kernel-review fetch <message-id | lore URL | patch.msgid.link URL> [-o <file.mbox>]\n' +
    '                           [--public-inbox <url>] [--message] [--timeout <seconds>] [--cache-dir <dir>]\n' +
    '       kernel-review fetch --search <query> [--threads] [-o <file.mbox>] [--public-inbox <url>]\n' +
    '\n' +
    'Fetches the whole thread the message belongs to (<inbox><message-id>/t.mbox.gz) and writes it\n' +
    'as an mbox to <file.mbox>, or to standard output. The thread is also kept in a local cache\n' +
    '(merged with what was fetched before, without duplicates), so commands given the same\n' +
    'Message-ID later open it without network; when the server cannot be reached, fetch falls back\n' +
    'to the cached copy and says so.\n' +
    '\n' +
    'The message may be given as 20200929132339.45710-1-sgarzare@redhat.com, <…>, id:…,\n' +
    'https://lore.kernel.org/io-uring/<id>/ (or …/T/#u, …/raw, …/t.mbox.gz) or https://patch.msgid.link/<id>.\n' +
    '\n' +
    PUBLIC_INBOX_USAGE +
    '  -o, --output <file>   write the mbox there instead of standard output\n' +
    '  --message             fetch only this message (<inbox><message-id>/raw), not its thread\n' +
    "  --search <query>      fetch the messages a public-inbox search finds (Xapian syntax, e.g.\n" +
    "                        's:io_uring f:axboe d:2.weeks.ago..', 'dfn:fs/iomap/iter.c')\n" +
    '  --threads             with --search: the whole thread of every match\n' +
    '  --timeout <seconds>   give up when the server sends nothing for this long (default 30)\n' +
    '  --cache-dir <dir>     cache folder (default $KERNEL_REVIEW_CACHE_DIR or ~/.cache/kernel-review/lore)\n' +
    '\n' +
    'Exit status: 0 fetched, 1 the server failed or has no such message, 2 bad arguments.\n',
  valueOptions: ['public-inbox', 'output', 'timeout', 'cache-dir', 'search'],
  flagOptions: ['message', 'threads'],
  run,
};
