/**
 * Wire encodings for a composed mail: RFC 2047 encoded-words for non-ASCII
 * header text, folding of long header lines, and the body transfer encoding
 * (8bit when it fits, quoted-printable when a line is too long for SMTP).
 */
import { Address } from '../model';
import { quoteName } from './address';

const MAX_LINE = 78;
/** RFC 5322's hard limit for a line, without the CRLF. */
const HARD_LIMIT = 998;

const isAscii = (s: string): boolean => /^[\x00-\x7f]*$/.test(s);

/** Q-encodes one chunk (RFC 2047 section 4.2, the stricter `phrase` alphabet). */
function qEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9!*+\-/]/.test(c)) out += c;
    else if (c === ' ') out += '_';
    else out += `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Encoded-words for `text`, each at most 75 characters, never splitting a
 * character across words (RFC 2047 section 5).
 */
export function encodedWords(text: string): string[] {
  const words: string[] = [];
  const open = '=?UTF-8?q?';
  const close = '?=';
  let cur = '';
  for (const ch of text) {
    const enc = qEncode(ch);
    if (open.length + cur.length + enc.length + close.length > 75 && cur) {
      words.push(open + cur + close);
      cur = '';
    }
    cur += enc;
  }
  if (cur) words.push(open + cur + close);
  return words;
}

const needsEncoding = (word: string): boolean => !isAscii(word) || /=\?.*\?=/.test(word);

/**
 * Encodes unstructured text (a Subject): ASCII words stay readable, each run of
 * words that need encoding becomes encoded-words (the spaces inside the run
 * are encoded with it, since whitespace between encoded-words is dropped).
 * Returns tokens separated by single spaces, ready for folding.
 */
export function encodeUnstructured(text: string): string[] {
  const words = text.split(/ +/).filter((w) => w.length > 0);
  const tokens: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length) tokens.push(...encodedWords(run.join(' ')));
    run = [];
  };
  for (const w of words) {
    if (needsEncoding(w)) run.push(w);
    else {
      flush();
      tokens.push(w);
    }
  }
  flush();
  return tokens;
}

/** One mailbox as tokens: the display name (quoted or encoded) and `<addr>`. */
export function encodeMailbox(a: Address): string[] {
  if (!a.name) return [a.address];
  if (needsEncoding(a.name)) return [...encodedWords(a.name), `<${a.address}>`];
  return [...quoteName(a.name).split(/ +/), `<${a.address}>`];
}

/**
 * Folds `Name: unit unit…` at spaces so that lines stay within 78 characters
 * where the text allows. A unit (one mailbox, one word) moves to the next
 * line whole; only a unit longer than a line is broken at its own spaces.
 */
export function foldHeader(name: string, units: string[], eol: string): string {
  let out = `${name}:`;
  let lineLen = out.length;
  const place = (t: string): void => {
    if (lineLen + 1 + t.length > MAX_LINE && lineLen > name.length + 1) {
      out += `${eol} ${t}`;
      lineLen = 1 + t.length;
    } else {
      out += ` ${t}`;
      lineLen += 1 + t.length;
    }
  };
  for (const u of units) {
    const fitsFresh = 1 + u.length <= MAX_LINE;
    if (u.includes(' ') && !fitsFresh) u.split(/ +/).forEach(place);
    else place(u);
  }
  return out + eol;
}

/** Units of an address list: one per mailbox, with its comma. */
export function encodeAddressList(list: Address[]): string[] {
  return list.map((a, i) => encodeMailbox(a).join(' ') + (i < list.length - 1 ? ',' : ''));
}

export type TransferEncoding = '8bit' | 'quoted-printable';

/** 8bit unless a line would break SMTP's line limit or carries a bare CR or NUL. */
export function chooseTransferEncoding(body: string): TransferEncoding {
  for (const line of body.split('\n')) {
    if (Buffer.byteLength(line, 'utf8') > HARD_LIMIT || /[\r\0]/.test(line)) return 'quoted-printable';
  }
  return '8bit';
}

/** Quoted-printable (RFC 2045 section 6.7) of UTF-8 text with LF line ends. */
export function quotedPrintable(body: string, eol: string): string {
  const out: string[] = [];
  for (const line of body.split('\n')) {
    const bytes = Buffer.from(line, 'utf8');
    let cur = '';
    const pieces: string[] = [];
    bytes.forEach((b, i) => {
      const last = i === bytes.length - 1;
      let enc: string;
      if ((b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last)) enc = String.fromCharCode(b);
      else enc = `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
      if (cur.length + enc.length > 75) {
        pieces.push(`${cur}=`);
        cur = '';
      }
      cur += enc;
    });
    pieces.push(cur);
    out.push(pieces.join(eol));
  }
  return out.join(eol);
}
