/**
 * A draft is the mail as the user edits it: readable UTF-8 headers, a blank
 * line, the body (LF line ends). `renderMail` turns it into the bytes that go
 * on the wire — RFC 2047 encoded, folded, with MIME headers and a transfer
 * encoding — deterministically, so what is sent is exactly what was shown.
 */
import { Address } from '../model';
import { formatAddress, parseAddressList } from './address';
import { ReplyError } from './errors';
import {
  chooseTransferEncoding,
  encodeAddressList,
  encodeUnstructured,
  foldHeader,
  quotedPrintable,
  TransferEncoding,
} from './encode';
import { ReplyHeaders } from './headers';

export interface DraftHeader {
  name: string;
  value: string;
}

export interface ParsedDraft {
  headers: DraftHeader[];
  body: string;
}

const ADDRESS_HEADERS = ['from', 'to', 'cc', 'bcc', 'reply-to'];
/** Headers renderMail writes itself; a draft's own copies are dropped. */
const GENERATED = ['mime-version', 'content-type', 'content-transfer-encoding'];

/** Folds a readable header for the draft (no encoding), e.g. a long Cc list. */
function draftHeader(name: string, tokens: string[]): string {
  return foldHeader(name, tokens, '\n');
}

function addressTokens(list: Address[]): string[] {
  return list.map((a, i) => formatAddress(a) + (i < list.length - 1 ? ',' : ''));
}

/** The editable text of a new draft. */
export function draftText(h: ReplyHeaders, body: string): string {
  let out = draftHeader('From', [formatAddress(h.from)]);
  out += draftHeader('To', addressTokens(h.to));
  if (h.cc.length) out += draftHeader('Cc', addressTokens(h.cc));
  out += `Subject: ${h.subject}\n`;
  out += `Date: ${h.date}\n`;
  out += `Message-ID: ${h.messageId}\n`;
  if (h.inReplyTo) out += `In-Reply-To: ${h.inReplyTo}\n`;
  if (h.references.length) out += draftHeader('References', h.references);
  return `${out}\n${body.replace(/\n*$/, '\n')}`;
}

/** The draft with its Date header set to `date` (a mail is dated when it is sent); other bytes unchanged. */
export function withDate(text: string, date: string): string {
  const norm = text.replace(/\r\n?/g, '\n');
  const end = norm.indexOf('\n\n');
  const head = end >= 0 ? norm.slice(0, end) : norm;
  const rest = end >= 0 ? norm.slice(end) : '';
  const re = /^Date:[^\n]*(?:\n[ \t][^\n]*)*/im;
  return (re.test(head) ? head.replace(re, `Date: ${date}`) : `${head}\nDate: ${date}`) + rest;
}

/** Splits a draft into unfolded headers and body. */
export function parseDraft(text: string, label = 'the draft'): ParsedDraft {
  const norm = text.replace(/\r\n?/g, '\n').replace(/^\uFEFF/, '');
  const sep = norm.indexOf('\n\n');
  const head = sep >= 0 ? norm.slice(0, sep) : norm;
  const body = sep >= 0 ? norm.slice(sep + 2) : '';
  const headers: DraftHeader[] = [];
  for (const line of head.split('\n')) {
    if (/^[ \t]/.test(line) && headers.length) {
      headers[headers.length - 1].value += ` ${line.trim()}`;
      continue;
    }
    const m = /^([!-9;-~]+):[ \t]*(.*)$/.exec(line);
    if (!m) throw new ReplyError('bad-draft', `${label} has a header line that is not "Name: value": "${line.slice(0, 60)}".`);
    headers.push({ name: m[1], value: m[2].trim() });
  }
  return { headers, body };
}

export function header(d: ParsedDraft, name: string): string | null {
  const h = d.headers.find((x) => x.name.toLowerCase() === name.toLowerCase());
  return h ? h.value : null;
}

export function addresses(d: ParsedDraft, name: string, label = 'the draft'): Address[] {
  const out: Address[] = [];
  for (const h of d.headers.filter((x) => x.name.toLowerCase() === name.toLowerCase())) {
    const { addresses: list, invalid } = parseAddressList(h.value);
    if (invalid.length) throw new ReplyError('bad-draft', `${label} has an address in ${h.name} that cannot be read: "${invalid[0]}".`);
    out.push(...list);
  }
  return out;
}

/** Who the mail goes to: To, Cc and Bcc addresses, each once. */
export function envelopeRecipients(d: ParsedDraft, label = 'the draft'): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const n of ['to', 'cc', 'bcc']) {
    for (const a of addresses(d, n, label)) {
      const k = a.address.toLowerCase();
      if (!seen.has(k)) {
        seen.add(k);
        out.push(a.address);
      }
    }
  }
  return out;
}

export interface RenderOptions {
  /** Line end on the wire: CRLF for SMTP, LF for files. Default LF. */
  eol?: '\n' | '\r\n';
  /** Force quoted-printable (for a server without 8BITMIME). */
  forceQuotedPrintable?: boolean;
}

/** The body's transfer encoding as rendered. */
export function transferEncoding(d: ParsedDraft, opts: RenderOptions = {}): TransferEncoding {
  const body = normaliseBody(d.body);
  if (opts.forceQuotedPrintable && /[^\x00-\x7f]/.test(body)) return 'quoted-printable';
  return chooseTransferEncoding(body);
}

function normaliseBody(body: string): string {
  return body.replace(/\r\n?/g, '\n').replace(/\n*$/, '\n');
}

/** The mail's bytes. Bcc is left out of the headers (it stays in the envelope). */
export function renderMail(text: string, opts: RenderOptions = {}, label = 'the draft'): Buffer {
  const eol = opts.eol ?? '\n';
  const d = parseDraft(text, label);
  if (!header(d, 'from')) throw new ReplyError('bad-draft', `${label} has no From header.`);
  let out = '';
  for (const h of d.headers) {
    const lower = h.name.toLowerCase();
    if (lower === 'bcc' || GENERATED.includes(lower)) continue;
    if (ADDRESS_HEADERS.includes(lower)) {
      out += foldHeader(h.name, encodeAddressList(addresses({ headers: [h], body: '' }, h.name, label)), eol);
    } else {
      // Subject and any other text header: readable ASCII words, encoded-words where needed.
      out += foldHeader(h.name, encodeUnstructured(h.value), eol);
    }
  }
  const cte = transferEncoding(d, opts);
  out += `MIME-Version: 1.0${eol}Content-Type: text/plain; charset=UTF-8${eol}Content-Transfer-Encoding: ${cte}${eol}${eol}`;
  const body = normaliseBody(d.body);
  const encoded = cte === 'quoted-printable' ? quotedPrintable(body.replace(/\n$/, ''), eol) + eol : body.replace(/\n/g, eol);
  return Buffer.from(out + encoded, 'utf8');
}
