/**
 * The headers of a reply, the way mutt fills them in: To the sender of the
 * answered mail, Cc everyone it was addressed to (lists kept, the user
 * left out), `Re: ` once, In-Reply-To and the full References chain, a new
 * Message-ID and the Date.
 */
import { randomBytes } from 'node:crypto';
import { Address, MailMessage } from '../model';
import { sameAddress } from './address';

export interface ReplyHeaders {
  from: Address;
  to: Address[];
  cc: Address[];
  subject: string;
  /** RFC 5322 date, e.g. `Sun, 29 Nov 2026 18:42:09 +0100`. */
  date: string;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
}

export interface HeaderOptions {
  /** The moment of composing; default now. */
  now?: Date;
  /** Minutes east of UTC for the Date header; default the local zone. */
  tzOffsetMinutes?: number;
  /** Use this Message-ID instead of generating one. */
  messageId?: string;
  /** The patch author when it differs from the sender (in-body `From:`): kept in Cc. */
  author?: Address | null;
}

const REPLY_MARK = /^\s*(?:\[external\]\s*)?(?:re|aw|sv|antw|vs|odp)(?:\[\d+\]|\(\d+\))?\s*:\s*/i;

/** `Re: <subject>` without stacking `Re: Re:` (or AW:, SV:… left by other clients). */
export function replySubject(subject: string): string {
  let s = subject.trim();
  while (REPLY_MARK.test(s)) s = s.replace(REPLY_MARK, '');
  return `Re: ${s}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number): string => String(n).padStart(2, '0');

/** RFC 5322 date-time in the given offset (minutes east of UTC). */
export function formatRfc5322Date(d: Date, offsetMinutes: number): string {
  const t = new Date(d.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${DAYS[t.getUTCDay()]}, ${t.getUTCDate()} ${MONTHS[t.getUTCMonth()]} ${t.getUTCFullYear()} ` +
    `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())} ${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  );
}

/** A fresh Message-ID on the sender's domain: `<20261129184209.3f9a1c2b7d4e@example.org>`. */
export function newMessageId(from: Address, now: Date): string {
  const domain = /@([A-Za-z0-9.-]+)$/.exec(from.address)?.[1] ?? 'localhost';
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `<${stamp}.${randomBytes(6).toString('hex')}@${domain}>`;
}

function dedupe(list: Address[], exclude: Address[]): Address[] {
  const out: Address[] = [];
  for (const a of list) {
    if (!a.address) continue;
    if (exclude.some((x) => sameAddress(x, a)) || out.some((x) => sameAddress(x, a))) continue;
    out.push(a);
  }
  return out;
}

export function replyHeaders(original: MailMessage, me: Address, opts: HeaderOptions = {}): ReplyHeaders {
  const now = opts.now ?? new Date();
  const offset = opts.tzOffsetMinutes ?? -now.getTimezoneOffset();
  // Answering one's own mail goes to the people it was sent to (as mutt does).
  const fromMe = sameAddress(original.from, me);
  const toList = fromMe ? dedupe(original.to, [me]) : dedupe([original.from], []);
  const ccSource = fromMe ? [...original.cc] : [...original.to, ...original.cc];
  if (opts.author) ccSource.push(opts.author);
  const cc = dedupe(ccSource, [me, ...toList]);
  const references = [...original.references];
  if (references.length === 0 && original.inReplyTo) references.push(original.inReplyTo);
  const inReplyTo = original.syntheticId ? null : original.messageId;
  if (inReplyTo && !references.includes(inReplyTo)) references.push(inReplyTo);
  return {
    from: me,
    to: toList.length ? toList : dedupe([original.from], []),
    cc,
    subject: replySubject(original.subject),
    date: formatRfc5322Date(now, offset),
    messageId: opts.messageId ?? newMessageId(me, now),
    inReplyTo,
    references,
  };
}
