/**
 * The import pipeline: inputs -> raw mails -> messages -> threads -> series.
 *
 * In `light` mode (list archives) only what the thread index needs is kept:
 * bodies are decoded only for mails that can carry a patch or trailers, and
 * dropped again once the patch's file list and trailers are taken from them.
 */
import { InputError, Thread } from './model';
import { readMails } from './mail/read';
import { buildThreads } from './mail/thread';
import { attachReplyTrailers, buildSeries } from './patch/series';
import { Item, itemOf } from './item';
import { parseMailLazy } from './mail/parse';
import { decodeInWorkers, defaultWorkers, workerScript } from './parallel';
import { stitchUnthreaded } from './patch/stitch';

export interface LoadOptions {
  stdin?: NodeJS.ReadableStream;
  /** Keep only what a thread index needs (no bodies, no diff text). */
  light?: boolean;
  /** Called every 500 messages with the count so far. */
  onProgress?: (messages: number) => void;
  signal?: AbortSignal;
  /** Worker threads for decoding in light mode (default: cores - 1, at most 4; 0 = none). */
  workers?: number;
}

async function readItems(inputs: string[], opts: LoadOptions): Promise<Item[]> {
  const items: Item[] = [];
  const seen = new Set<string>();
  const mails = readMails(inputs, { stdin: opts.stdin });
  const workers = opts.workers ?? defaultWorkers();
  const script = workerScript();
  const source: AsyncIterable<Item> =
    opts.light && workers > 0 && script
      ? decodeInWorkers(mails, { light: true, workers, script, signal: opts.signal })
      : (async function* () {
          for await (const raw of mails) {
            if (opts.signal?.aborted) throw new Error('cancelled');
            const item = await itemOf(raw, !!opts.light);
            // The strings an item keeps are slices of the whole mail's text; a copy lets the mail go.
            // (Items from workers arrive copied already.)
            yield opts.light ? structuredClone(item) : item;
          }
        })();
  for await (const item of source) {
    // The same mail in two inputs (or twice in one archive) counts once.
    if (seen.has(item.msg.messageId)) continue;
    seen.add(item.msg.messageId);
    items.push(item);
    if (opts.onProgress && items.length % 500 === 0) opts.onProgress(items.length);
  }
  return items;
}

/** Reads every input and returns its threads, with series, patches and trailers. */
export async function loadThreads(inputs: string[], opts: LoadOptions = {}): Promise<Thread[]> {
  const items = await readItems(inputs, opts);
  return assembleThreads(items);
}

function assembleThreads(items: Item[]): Thread[] {
  const byId = new Map(items.map((i) => [i.msg.messageId, i]));
  const msgById = new Map(items.map((i) => [i.msg.messageId, i.msg]));
  const subjects = new Map(items.map((i) => [i.msg.messageId, i.subject]));
  const shapes = stitchUnthreaded(
    buildThreads(items.map((i) => i.msg)),
    msgById,
    subjects,
  );
  return shapes.map((shape) => {
    const members = shape.order.map((id) => byId.get(id)!);
    const series = buildSeries(members, shape.parentOf);
    attachReplyTrailers(
      series,
      members.map((m) => ({ messageId: m.msg.messageId, trailers: m.trailers })),
      shape.parentOf,
    );
    const rootMsg = msgById.get(shape.root);
    const earliest = members.reduce<Item | null>(
      (a, b) => (!a || (b.msg.date?.getTime() ?? Infinity) < (a.msg.date?.getTime() ?? Infinity) ? b : a),
      null,
    );
    return {
      rootMessageId: shape.root,
      subject: (rootMsg ?? earliest?.msg)?.subject ?? '',
      messages: members.map((m) => m.msg),
      placeholders: shape.placeholders,
      parentOf: Object.fromEntries(shape.parentOf),
      series,
      pulls: members.flatMap((m) => (m.pull ? [m.pull] : [])),
    };
  });
}

/** The thread holding `messageId` (angle brackets optional), or undefined. */
export function findThread(threads: Thread[], messageId: string): Thread | undefined {
  const id = messageId.startsWith('<') ? messageId : `<${messageId}>`;
  return threads.find((t) => t.rootMessageId === id || t.messages.some((m) => m.messageId === id) || t.placeholders.includes(id));
}

/** Like findThread, but an unknown id is an input error naming the inputs. */
export function requireThread(threads: Thread[], messageId: string, inputs: string[]): Thread {
  const t = findThread(threads, messageId);
  if (!t) throw new InputError(inputs.join(', '), `holds no message ${messageId.startsWith('<') ? messageId : `<${messageId}>`}`);
  return t;
}

/**
 * The thread holding `messageId`, fully decoded, without decoding the rest of
 * the inputs: a light index finds the thread, then a second pass decodes just
 * its mails (what `b4 am -m` does with a list archive). Standard input cannot
 * be read twice, so with `-` everything is decoded once.
 */
export async function loadThread(inputs: string[], messageId: string, opts: LoadOptions = {}): Promise<Thread> {
  if (inputs.includes('-')) return requireThread(await loadThreads(inputs, opts), messageId, inputs);
  const index = await loadThreads(inputs, { ...opts, light: true });
  const wanted = new Set(requireThread(index, messageId, inputs).messages.map((m) => m.messageId));
  const items: Item[] = [];
  for await (const raw of readMails(inputs)) {
    if (opts.signal?.aborted) throw new Error('cancelled');
    const id = parseMailLazy(raw, { headersOnly: true }).headers.messageId;
    if (!wanted.delete(id)) continue;
    items.push(await itemOf(raw, false));
  }
  return requireThread(assembleThreads(items), messageId, inputs);
}
