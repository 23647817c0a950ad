/**
 * What the import keeps of one mail: the decoded message, its subject
 * prefixes, and the patch, pull request and trailers it carries. A pure
 * function of the raw bytes, so it can run in a worker thread.
 */
import { MailMessage, Patch, PullRequest, RawMail, SubjectInfo, Trailer } from './model';
import { LazyMail, parseMailLazy } from './mail/parse';
import { parseSubject } from './patch/subject';
import { extractPatch } from './patch/extract';
import { findReplyTrailers } from './patch/trailers';
import { extractPull } from './patch/pull';
import { CoverMeta, coverMetaOf } from './patch/series';

export interface Item {
  msg: MailMessage;
  subject: SubjectInfo;
  patch: Patch | null;
  pull: PullRequest | null;
  trailers: Trailer[];
  coverMeta?: CoverMeta;
}

/** Whether a list-archive mail must be decoded for the index: patches, pulls, and replies that may carry trailers. */
function mayNeedBody(lazy: LazyMail, subject: SubjectInfo): boolean {
  if (subject.isPull || !subject.isReply) return true;
  // A reply matters only for its trailers: a cheap byte search decides, unless base64 hides the text.
  return lazy.rawBody.indexOf('-by:') >= 0 || lazy.transferEncoding === 'base64';
}

/** A patch without its text: what a thread index needs (files, trailers, base). */
function lighten(p: Patch): Patch {
  return {
    ...p,
    diffText: '',
    commitBody: '',
    notes: '',
    files: p.files.map((f) => ({ ...f, hunks: [] })),
  };
}

/** Decodes one mail. In `light` mode bodies are decoded only where needed and not kept. */
export async function itemOf(raw: RawMail, light: boolean): Promise<Item> {
  const lazy = parseMailLazy(raw, { headersOnly: light });
  const subject = parseSubject(lazy.headers.subject);
  let msg = !light || mayNeedBody(lazy, subject) ? await lazy.decode() : lazy.headers;
  let patch = !subject.isReply && msg.body !== '' ? extractPatch(msg, { light }) : null;
  // A pull request without [GIT PULL] in its subject is still a new mail, not a reply.
  const pull = subject.isPull || (!subject.isReply && !patch && /are available in the [Gg]it repository at/.test(msg.body)) ? extractPull(msg) : null;
  const trailers = patch ? [] : findReplyTrailers(msg.body, msg.messageId, { from: msg.from });
  const coverMeta = !patch && subject.isPatch && !subject.isReply ? coverMetaOf(msg.body) : undefined;
  if (light) {
    if (patch) patch = lighten(patch);
    msg = { ...msg, body: '', patchAttachments: [] };
  }
  return { msg, subject, patch, pull, trailers, coverMeta };
}
