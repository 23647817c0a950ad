/**
 * Inputs that are not quite mail: renderings of a message copied out of a mail
 * reader or a web archive, and files that are not mail at all. Each is either
 * turned into an RFC 822 message or refused with one sentence.
 */
import { createHash } from 'node:crypto';
import { InputError } from '../model';

const RENDERED_FROM = /^\[(.*?)\s*<([^<>\s]+@[^<>\s]+)>\]$/;

function firstLines(bytes: Buffer, n: number): string[] {
  return bytes.subarray(0, 4096).toString('utf8').split('\n', n);
}

/** Rendered form: subject line, blank, `[Name <addr>]`, blank, body. */
export function isRendered(bytes: Buffer): boolean {
  const [subject, blank, from] = firstLines(bytes, 3);
  return (
    subject !== undefined &&
    subject.trim() !== '' &&
    blank?.trim() === '' &&
    RENDERED_FROM.test((from ?? '').trim())
  );
}

function encodeIfNeeded(s: string): string {
  return /[^\x20-\x7e]/.test(s) ? `=?UTF-8?B?${Buffer.from(s).toString('base64')}?=` : s;
}

/**
 * Rewrites a rendered message into a real one with Subject/From headers and a
 * stable synthetic Message-ID (the rendering lost the real one). Other bytes
 * are returned unchanged.
 */
export function renderedToRfc822(bytes: Buffer): Buffer {
  if (!isRendered(bytes)) return bytes;
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  const m = RENDERED_FROM.exec(lines[2].trim())!;
  const body = lines.slice(lines[3]?.trim() === '' ? 4 : 3).join('\n');
  const id = createHash('sha1').update(bytes).digest('hex').slice(0, 16);
  const name = m[1].replace(/["\\]/g, '');
  const headers = [
    `From: ${name ? `"${encodeIfNeeded(name)}" ` : ''}<${m[2]}>`,
    `Subject: ${encodeIfNeeded(lines[0].trim())}`,
    `Message-ID: <rendered-${id}@kernel-review.invalid>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    'X-Kernel-Review-Rendered: yes',
  ];
  return Buffer.from(`${headers.join('\n')}\n\n${body}`, 'utf8');
}

function looksBinary(sample: Buffer): boolean {
  if (sample.length === 0) return false;
  let bad = 0;
  for (const b of sample) if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b)) bad++;
  return bad > 0 && bad / sample.length > 0.01;
}

/**
 * Checks a message read from an input without an envelope line (or with an
 * absurd one), and refuses what cannot be mail, with the reason.
 */
export function checkSingleText(bytes: Buffer, source: string): void {
  const sample = bytes.subarray(0, 65536);
  const nl = sample.indexOf(0x0a);
  const firstLineLen = nl < 0 ? sample.length : nl;
  if (firstLineLen > 998) {
    const head = sample.toString('latin1');
    if (/\b(?:Subject|From|Date|Received):/i.test(head)) {
      const id = /Message-I[Dd]:\s*<([^\s<>]+@[^\s<>]+)>/i.exec(head)?.[1];
      const parent = /In-Reply-To:\s*<([^\s<>]+@[^\s<>]+)>/i.exec(head)?.[1];
      const lost = 'is a mail whose line breaks were lost, so its headers, quotes and diff cannot be told apart';
      if (id) {
        throw new InputError(source, `${lost}; fetch the intact thread of Message-ID <${id}> from a public-inbox server (kernel-review fetch '<${id}>')`);
      }
      if (parent) {
        throw new InputError(source, `${lost}, and its own Message-ID with them; it answers <${parent}>, whose intact thread a public-inbox server has (kernel-review fetch '<${parent}>')`);
      }
      throw new InputError(source, `${lost}, and no Message-ID survived to fetch it by`);
    }
    if (looksBinary(sample)) throw new InputError(source, 'is binary data, not mail');
    throw new InputError(source, `is not mail: its first line is ${firstLineLen >= 65536 ? 'over 64 KiB' : `${firstLineLen} characters`} long and holds no mail headers`);
  }
  // Mail with stray control bytes (a broken mailer, a fuzzer) still starts like mail; garbage does not.
  const startsLikeMail = /^(?:From |[!-9;-~]+:)/.test(sample.subarray(0, 200).toString('latin1'));
  if (!startsLikeMail && looksBinary(sample)) throw new InputError(source, 'is binary data, not mail');
}
