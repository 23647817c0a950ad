/**
 * Streaming mbox splitter.
 *
 * States, per line:
 *   START   -> before the first message; a `From ` line starts one, anything else
 *              means the input is a single message without an envelope line.
 *   MESSAGE -> inside a message; a `From ` line that follows a blank line (or that
 *              follows the previous message directly, as some writers do) ends it.
 *
 * Body lines are unescaped as the envelope format asks: mboxrd (lore's
 * `From mboxrd@z` separator) strips one `>` from `^>+From `; mboxo strips the `>`
 * from `^>From ` (mutt and Thunderbird write that escaping; git mailsplit keeps the
 * `>`, which leaves a stray `>` in commit messages that began a line with "From").
 * CRLF line ends become LF. Only one message is held in memory at a time.
 */

export interface SplitMessage {
  /** Message bytes without the envelope line, unescaped, LF line ends. */
  bytes: Buffer;
  /** The envelope (`From …`) line, or null for an input without one. */
  envelope: string | null;
  /** The message ended at end of input without a final newline. */
  unterminated: boolean;
}

const FROM = Buffer.from('From ');

function isBlankLine(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i] !== 0x20 && buf[i] !== 0x09 && buf[i] !== 0x0d) return false;
  return true;
}
const NL = 0x0a;

/**
 * True when bytes [start, end) form an mbox envelope line: `From `, then a
 * date whose time (h:mm or hh:mm:ss) is followed by a year — the test git
 * mailsplit applies, so `From the beginning…` in a body is not a separator.
 */
export function isEnvelopeLine(buf: Buffer, start: number, end: number): boolean {
  if (end - start < 20 || buf[start] !== 0x46 || !buf.subarray(start, start + 5).equals(FROM)) return false;
  let e = end;
  if (buf[e - 1] === 0x0d) e--;
  const line = buf.subarray(start + 5, e).toString('latin1');
  const colon = line.lastIndexOf(':');
  if (colon < 4) return false;
  const d = (i: number) => i >= 0 && i < line.length && line.charCodeAt(i) >= 48 && line.charCodeAt(i) <= 57;
  if (!d(colon - 4) || !d(colon - 2) || !d(colon - 1) || !d(colon + 1) || !d(colon + 2)) return false;
  return parseInt(line.slice(colon + 3).trim().split(/\s+/).pop() ?? '', 10) > 90 || parseInt(line.slice(colon + 3), 10) > 90;
}

function unescape(bytes: Buffer, rd: boolean): Buffer {
  if (bytes.indexOf('>From ') < 0) return bytes;
  const text = bytes.toString('latin1');
  const out = rd ? text.replace(/^>(>*From )/gm, '$1') : text.replace(/^>From /gm, 'From ');
  return Buffer.from(out, 'latin1');
}

function normalise(bytes: Buffer, rd: boolean): Buffer {
  let b = bytes;
  if (b.indexOf(0x0d) >= 0) b = Buffer.from(b.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
  return unescape(b, rd);
}

/**
 * Splits a stream of bytes into messages. Yields each message as soon as the
 * next envelope line (or end of input) is seen.
 */
export async function* splitMbox(chunks: AsyncIterable<Buffer>): AsyncGenerator<SplitMessage> {
  let pending: Buffer = Buffer.alloc(0);
  let parts: Buffer[] = [];
  let envelope: string | null = null;
  let started = false;
  let rd = false;
  let prevBlank = true;

  const flush = (unterminated: boolean): SplitMessage | null => {
    if (!started) return null;
    let body = Buffer.concat(parts);
    parts = [];
    // The blank line before the next envelope belongs to the mbox format.
    if (body.length >= 2 && body[body.length - 1] === NL && body[body.length - 2] === NL) body = body.subarray(0, body.length - 1);
    else if (body.length >= 3 && body.subarray(body.length - 3).toString('latin1') === '\n\r\n') body = body.subarray(0, body.length - 2);
    // Blank lines before the first envelope are not a message.
    if (envelope === null && body.toString('latin1').trim() === '') return null;
    return { bytes: normalise(body, rd), envelope, unterminated };
  };

  for await (const chunk of chunks) {
    const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let pos = 0;
    let runStart = 0; // start of lines accumulated for the current message
    for (;;) {
      const nl = buf.indexOf(NL, pos);
      if (nl < 0) break;
      // A single message without an envelope is never split; an mbox splits at envelope lines.
      const isFrom =
        buf[pos] === 0x46 /* F */ &&
        (!started || envelope !== null) &&
        (isEnvelopeLine(buf, pos, nl) || (prevBlank && buf.subarray(pos, Math.min(nl, pos + 12)).toString('latin1') === 'From mboxrd@'));
      if (isFrom) {
        if (pos > runStart) parts.push(buf.subarray(runStart, pos));
        const done = flush(false);
        if (done) yield done;
        envelope = buf.subarray(pos, nl).toString('latin1').replace(/\r$/, '');
        rd = /^From mboxrd[@ ]/.test(envelope);
        started = true;
        runStart = nl + 1;
        prevBlank = false;
      } else if (!started && isBlankLine(buf, pos, nl)) {
        // Blank lines before the first message are skipped, as git mailsplit does.
        runStart = nl + 1;
      } else {
        if (!started) {
          // No envelope before the first line: a single message (.eml).
          started = true;
          envelope = null;
        }
        const len = nl - pos;
        prevBlank = len === 0 || (len === 1 && buf[pos] === 0x0d);
      }
      pos = nl + 1;
    }
    if (runStart < buf.length) {
      // Keep everything after runStart; the part before `pos` is complete lines.
      if (pos > runStart) parts.push(buf.subarray(runStart, pos));
      pending = Buffer.from(buf.subarray(pos));
    } else {
      pending = Buffer.alloc(0);
    }
  }
  if (pending.length) {
    if (!started) {
      started = true;
      envelope = null;
    }
    parts.push(pending);
  }
  const last = pending.length > 0;
  const done = flush(last && pending[pending.length - 1] !== NL);
  if (done) yield done;
}
