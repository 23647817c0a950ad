/**
 * A reply to one message of a thread, from the user's comments and trailers:
 * the editable draft text (headers and body).
 */
import { Address, InputError, MailMessage, Patch, Thread } from '../model';
import { extractPatch } from '../patch/extract';
import { composeBody, DraftComment } from './compose';
import { draftText } from './draft';
import { replyHeaders } from './headers';
import { appendTrailers, trailerLine, TrailerName } from './trailers';
import { quoteForAnswer } from './answer';

export interface CreateReplyInput {
  thread: Thread;
  /** The message answered (angle brackets optional). */
  messageId: string;
  comments: DraftComment[];
  trailers?: TrailerName[];
  identity: Address;
  now?: Date;
  tzOffsetMinutes?: number;
  /** A fixed Message-ID for the reply (reproducible output). */
  replyMessageId?: string;
  /** Where the comments came from, for error messages. */
  source?: string;
  /** Answering one comment of the answered mail: its text, quoted with what it is about. */
  answering?: string;
}

export interface CreatedReply {
  text: string;
  original: MailMessage;
  patch: Patch | null;
}

/** The patch carried by `msg` in this thread: from its series, else read from the mail itself. */
export function patchOf(thread: Thread, msg: MailMessage): Patch | null {
  for (const s of thread.series) {
    const p = s.patches.find((x) => x.messageId === msg.messageId);
    if (p) return p;
  }
  return msg.body ? extractPatch(msg) : null;
}

export function createReply(input: CreateReplyInput): CreatedReply {
  const id = input.messageId.startsWith('<') ? input.messageId : `<${input.messageId}>`;
  const original = input.thread.messages.find((m) => m.messageId === id);
  if (!original) throw new InputError(input.source ?? 'thread', `the thread holds no message ${id} to answer`);
  const patch = patchOf(input.thread, original);
  const author = patch && patch.author.address && patch.author.address !== original.from.address ? patch.author : null;
  const headers = replyHeaders(original, input.identity, {
    now: input.now,
    tzOffsetMinutes: input.tzOffsetMinutes,
    messageId: input.replyMessageId && !input.replyMessageId.startsWith('<') ? `<${input.replyMessageId}>` : input.replyMessageId,
    author,
  });
  const answer = input.answering && !input.comments.length ? quoteForAnswer(original, input.answering) : null;
  const body = answer ? (input.trailers?.length ? appendTrailers(answer, (input.trailers ?? []).map((t) => trailerLine(t, input.identity))) : answer) : composeBody({
    original,
    patch,
    comments: input.comments,
    trailers: (input.trailers ?? []).map((t) => trailerLine(t, input.identity)),
    source: input.source,
  });
  return { text: draftText(headers, body), original, patch };
}
