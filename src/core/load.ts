/**
 * The import pipeline: inputs -> raw mails -> messages -> threads -> series.
 *
 * In `light` mode (list archives) only what the thread index needs is kept:
 * bodies are decoded only for mails that can carry a patch or trailers, and
 * dropped again once the patch's file list and trailers are taken from them.
 */
import { InputError, MailMessage, Patch, PullRequest, SubjectInfo, Thread, Trailer } from './model';
import { readMails } from './mail/read';
import { parseMail } from './mail/parse';
import { buildThreads } from './mail/thread';
import { parseSubject } from './patch/subject';
import { extractPatch } from './patch/extract';
import { findReplyTrailers } from './patch/trailers';
import { extractPull } from './patch/pull';
import { CoverMeta, attachReplyTrailers, buildSeries, coverMetaOf } from './patch/series';
import { stitchUnthreaded } from './patch/stitch';

export interface LoadOptions {
  stdin?: NodeJS.ReadableStream;
  /** Keep only what a thread index needs (no bodies, no diff text). */
  light?: boolean;
  /** Called every 500 messages with the count so far. */
  onProgress?: (messages: number) => void;
  signal?: AbortSignal;
}

interface Item {
  msg: MailMessage;
  subject: SubjectInfo;
  patch: Patch | null;
  pull: PullRequest | null;
  trailers: Trailer[];
  coverMeta?: CoverMeta;
}

const MAY_NEED_BODY = /^(?:diff --git |Index: |--- |[A-Za-z-]+-by: |base-commit: |change-id: )/m;

function mayNeedBody(bytes: Buffer, subject: SubjectInfo): boolean {
  if (subject.isPull || (subject.isPatch && !subject.isReply)) return true;
  // Cheap scan of the raw bytes: trailers, inline diffs, base64/QP bodies we cannot scan.
  const text = bytes.toString('latin1');
  return MAY_NEED_BODY.test(text) || /^Content-Transfer-Encoding:\s*(base64|quoted-printable)/im.test(text);
}

function lighten(p: Patch): Patch {
  return {
    ...p,
    diffText: '',
    commitBody: '',
    notes: '',
    files: p.files.map((f) => ({ ...f, hunks: [] })),
  };
}

async function readItems(inputs: string[], opts: LoadOptions): Promise<Item[]> {
  const items: Item[] = [];
  const seen = new Set<string>();
  for await (const raw of readMails(inputs, { stdin: opts.stdin })) {
    if (opts.signal?.aborted) throw new Error('cancelled');
    let msg = await parseMail(raw, { headersOnly: opts.light });
    if (seen.has(msg.messageId)) continue;
    seen.add(msg.messageId);
    const subject = parseSubject(msg.subject);
    if (opts.light && mayNeedBody(raw.bytes, subject)) msg = await parseMail(raw);
    const isMember = !subject.isReply;
    let patch = isMember && msg.body !== '' ? extractPatch(msg) : null;
    const pull = subject.isPull || /are available in the [Gg]it repository at/.test(msg.body) ? extractPull(msg) : null;
    const trailers = patch ? [] : findReplyTrailers(msg.body, msg.messageId);
    const coverMeta = !patch && subject.isPatch && !subject.isReply ? coverMetaOf(msg.body) : undefined;
    if (opts.light) {
      if (patch) patch = lighten(patch);
      msg = { ...msg, body: '', patchAttachments: [] };
    }
    items.push({ msg, subject, patch, pull, trailers, coverMeta });
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
