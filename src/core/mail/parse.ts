/**
 * Raw bytes -> MailMessage. Simple single-part text mails (most list traffic)
 * are decoded directly; everything else (quoted-printable, base64, multipart,
 * HTML) goes through mailparser.
 */
import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import { MailMessage, RawMail } from '../model';
import {
  HeaderMap,
  decodeBytes,
  decodeWords,
  first,
  headerEnd,
  messageIdOf,
  messageIds,
  parseAddress,
  parseAddressList,
  parseDate,
  parseDateZone,
  parseHeaderBlock,
} from './headers';

const HEADER_START = /^(?:[!-9;-~]+:|\n)/;

/** The header fields a MailMessage is built from; the rest of a list mail's headers are skipped. */
const WANTED = new Set([
  'message-id',
  'in-reply-to',
  'references',
  'subject',
  'from',
  'to',
  'cc',
  'date',
  'content-type',
  'content-transfer-encoding',
]);

export interface ParseOptions {
  /** Skip the body and the To/Cc lists (for building a thread index): `body` is empty. */
  headersOnly?: boolean;
}

/** Decodes bytes in a declared charset, falling back to UTF-8/Windows-1252 for unknown or wrong labels. */
export function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const label = (charset ?? '').trim().toLowerCase().replace(/^"|"$/g, '');
  if (!label || label === 'us-ascii' || label === 'ascii' || label === 'utf-8' || label === 'utf8') return decodeBytes(bytes);
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return decodeBytes(bytes);
  }
}

function param(value: string | undefined, name: string): string | undefined {
  if (!value) return undefined;
  const m = new RegExp(`;\\s*${name}\\s*=\\s*("([^"]*)"|[^;\\s]+)`, 'i').exec(value);
  return m ? (m[2] ?? m[1]) : undefined;
}

/** RFC 3676 format=flowed: joins soft line breaks (a line ending in a space), undoes space-stuffing. */
export function unflow(text: string, delsp: boolean): string {
  const out: string[] = [];
  let cur: string | null = null;
  let curDepth = 0;
  for (const rawLine of text.split('\n')) {
    const depth = /^>*/.exec(rawLine)![0].length;
    let line = rawLine.slice(depth);
    if (line.startsWith(' ')) line = line.slice(1);
    const soft = line.endsWith(' ') && line !== '-- ';
    const piece = soft && delsp ? line.slice(0, -1) : line;
    if (cur !== null && depth === curDepth) cur += piece;
    else {
      if (cur !== null) out.push('>'.repeat(curDepth) + (curDepth ? ' ' : '') + cur);
      cur = piece;
      curDepth = depth;
    }
    if (!soft) {
      out.push('>'.repeat(curDepth) + (curDepth && cur ? ' ' : '') + cur);
      cur = null;
    }
  }
  if (cur !== null) out.push('>'.repeat(curDepth) + (curDepth ? ' ' : '') + cur);
  return out.join('\n');
}

const PATCH_TYPES = /^(text\/x-(patch|diff)|text\/x-diff|application\/x-(patch|diff)|text\/diff|text\/patch)$/i;

function syntheticId(raw: RawMail): string {
  const h = createHash('sha1').update(raw.bytes.subarray(0, 65536)).digest('hex').slice(0, 20);
  return `<kpr-${h}@kernel-review.invalid>`;
}

function headerFields(h: HeaderMap, raw: RawMail, light: boolean): Omit<MailMessage, 'body' | 'patchAttachments'> {
  const id = messageIdOf(first(h, 'message-id'));
  const refs = (h.get('references') ?? []).flatMap((v) => messageIds(v));
  const irt = messageIdOf(first(h, 'in-reply-to'));
  const fromHeader = first(h, 'from');
  return {
    messageId: id ?? syntheticId(raw),
    syntheticId: !id,
    inReplyTo: irt,
    references: refs,
    subject: decodeWords(first(h, 'subject') ?? '').replace(/\s+/g, ' ').trim(),
    from: fromHeader ? parseAddress(fromHeader) : { name: '', address: '' },
    to: light ? [] : parseAddressList(first(h, 'to')),
    cc: light ? [] : parseAddressList((h.get('cc') ?? []).join(', ')),
    date: parseDate(first(h, 'date')),
    dateZone: parseDateZone(first(h, 'date')),
    source: raw.source,
    index: raw.index,
  };
}

/** Quoted-printable to bytes (RFC 2045 6.7): soft breaks joined, `=XX` decoded, broken escapes kept. */
export function decodeQuotedPrintable(bytes: Buffer): Buffer {
  const text = bytes.toString('latin1').replace(/[ \t]+$/gm, '').replace(/=\n/g, '');
  return Buffer.from(
    text.replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  );
}

/** Single-part text/plain bodies (nearly all list mail) are decoded here; null sends the mail to mailparser. */
function fastBody(h: HeaderMap, bodyBytes: Buffer): string | null {
  const ct = first(h, 'content-type');
  const type = (ct ?? 'text/plain').split(';')[0].trim().toLowerCase();
  const cte = (first(h, 'content-transfer-encoding') ?? '').trim().toLowerCase();
  if (type !== 'text/plain' && type !== '') return null;
  let bytes = bodyBytes;
  if (cte === 'quoted-printable') bytes = decodeQuotedPrintable(bodyBytes);
  else if (cte === 'base64') bytes = Buffer.from(bodyBytes.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  else if (cte && cte !== '7bit' && cte !== '8bit' && cte !== 'binary') return null;
  let text = decodeCharset(bytes, param(ct, 'charset'));
  if (text.includes('\r')) text = text.replace(/\r\n/g, '\n');
  if ((param(ct, 'format') ?? '').toLowerCase() === 'flowed') text = unflow(text, (param(ct, 'delsp') ?? '').toLowerCase() === 'yes');
  return text;
}

async function slowBody(raw: RawMail): Promise<{ body: string; patchAttachments: string[] }> {
  let parsed: ParsedMail;
  try {
    // Loaded on first use: most list mail never needs it, and it is the bulk of start-up time.
    const { simpleParser } = await import('mailparser');
    parsed = await simpleParser(raw.bytes, { skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  } catch {
    // mailparser gave up (broken MIME): fall back to the raw body as text.
    const end = headerEnd(raw.bytes);
    return { body: decodeBytes(raw.bytes.subarray(end < 0 ? raw.bytes.length : end + 1)), patchAttachments: [] };
  }
  const patchAttachments: string[] = [];
  for (const a of parsed.attachments ?? []) {
    const name = a.filename ?? '';
    if (PATCH_TYPES.test(a.contentType) || /\.(patch|diff)$/i.test(name)) {
      patchAttachments.push(decodeCharset(a.content, undefined).replace(/\r\n/g, '\n'));
    }
  }
  let body = typeof parsed.text === 'string' ? parsed.text : '';
  if (!body && typeof parsed.html === 'string') body = parsed.html.replace(/<[^>]*>/g, '');
  body = body.replace(/\r\n/g, '\n');
  // mailparser folds inline text parts into `text`; a patch attachment belongs in patchAttachments only.
  for (const a of patchAttachments) {
    const at = a.trim() ? body.lastIndexOf(a.trim()) : -1;
    if (at >= 0) body = (body.slice(0, at) + body.slice(at + a.trim().length)).replace(/\n{3,}$/, '\n');
  }
  return { body, patchAttachments };
}

/** A message whose headers are decoded and whose body is decoded only on request. */
export interface LazyMail {
  /** The message with an empty body and (in light mode) empty To/Cc. */
  headers: MailMessage;
  /** The raw body bytes (still transfer-encoded). */
  rawBody: Buffer;
  /** The Content-Transfer-Encoding, lower-cased ('' when absent). */
  transferEncoding: string;
  /** Decodes the body. */
  decode(): Promise<MailMessage>;
}

export function parseMailLazy(raw: RawMail, opts: ParseOptions = {}): LazyMail {
  // Text without a header block (a reply copied out of a mail reader) is all body.
  const headerless = !HEADER_START.test(raw.bytes.subarray(0, 200).toString('latin1'));
  const end = headerless ? -1 : headerEnd(raw.bytes);
  const headerBytes = headerless ? Buffer.alloc(0) : end < 0 ? raw.bytes : raw.bytes.subarray(0, end);
  const bodyBytes = headerless ? raw.bytes : end < 0 ? Buffer.alloc(0) : raw.bytes.subarray(end + 1);
  const h = parseHeaderBlock(decodeBytes(headerBytes), WANTED);
  const headers: MailMessage = { ...headerFields(h, raw, !!opts.headersOnly), body: '', patchAttachments: [] };
  return {
    headers,
    rawBody: bodyBytes,
    transferEncoding: (first(h, 'content-transfer-encoding') ?? '').trim().toLowerCase(),
    async decode() {
      const fast = fastBody(h, bodyBytes);
      if (fast !== null) return { ...headers, body: fast };
      return { ...headers, ...(await slowBody(raw)) };
    },
  };
}

/** Decodes one raw message. Never throws on malformed mail: broken parts degrade to raw text. */
export async function parseMail(raw: RawMail, opts: ParseOptions = {}): Promise<MailMessage> {
  const lazy = parseMailLazy(raw, opts);
  return opts.headersOnly ? lazy.headers : lazy.decode();
}

/** Headers of a message, for callers that need more than MailMessage carries (e.g. the reply composer). */
export function rawHeaders(raw: Buffer): HeaderMap {
  const end = headerEnd(raw);
  return parseHeaderBlock(decodeBytes(end < 0 ? raw : raw.subarray(0, end)));
}
