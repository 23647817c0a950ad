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
 * next envelope line (or end of input) is seen. Only `\nFrom ` positions are
 * examined, so the cost is a memory search over the bytes, not a per-line loop.
 */
export async function* splitMbox(chunks: AsyncIterable<Buffer>): AsyncGenerator<SplitMessage> {
  let pending: Buffer = Buffer.alloc(0);
  let parts: Buffer[] = [];
  let envelope: string | null = null;
  let mode: 'start' | 'mbox' | 'single' = 'start';
  let rd = false;

  const flush = (unterminated: boolean): SplitMessage | null => {
    if (mode === 'start') return null;
    let body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    parts = [];
    // The blank line before the next envelope belongs to the mbox format.
    if (body.length >= 2 && body[body.length - 1] === NL && body[body.length - 2] === NL) body = body.subarray(0, body.length - 1);
    else if (body.length >= 3 && body[body.length - 1] === NL && body[body.length - 2] === 0x0d && body[body.length - 3] === NL) body = body.subarray(0, body.length - 2);
    if (envelope === null && body.toString('latin1').trim() === '') return null;
    return { bytes: normalise(body, rd), envelope, unterminated };
  };
  const startEnvelope = (buf: Buffer, start: number, nl: number) => {
    envelope = buf.subarray(start, nl).toString('latin1').replace(/\r$/, '');
    rd = /^From mboxrd[@ ]/.test(envelope);
  };

  /** Looks for envelope lines in buf from `runStart` up to `settled`; returns the new runStart. */
  const scan = function* (buf: Buffer, runStart: number, settled: number): Generator<SplitMessage, number> {
    let from = runStart > 0 ? runStart - 1 : 0;
    for (;;) {
      const i = buf.indexOf('\nFrom ', from);
      if (i < 0 || i >= settled) break;
      const start = i + 1;
      const nl = buf.indexOf(NL, start);
      if (nl < 0) break;
      const blankBefore = i >= 1 && (buf[i - 1] === NL || (buf[i - 1] === 0x0d && i >= 2 && buf[i - 2] === NL));
      if (isEnvelopeLine(buf, start, nl) || (blankBefore && buf.subarray(start, start + 12).toString('latin1') === 'From mboxrd@')) {
        parts.push(buf.subarray(runStart, start));
        const done = flush(false);
        if (done) yield done;
        startEnvelope(buf, start, nl);
        runStart = nl + 1;
      }
      from = nl;
    }
    return runStart;
  };

  for await (const input of chunks) {
    let chunk = input;
    let runStart = 0;
    if (mode === 'start') {
      // Skip blank lines, then decide: an envelope line makes this an mbox, anything else one message.
      chunk = pending.length ? Buffer.concat([pending, input]) : input;
      pending = Buffer.alloc(0);
      let p = 0;
      for (;;) {
        const nl = chunk.indexOf(NL, p);
        if (nl < 0) break;
        if (isBlankLine(chunk, p, nl)) {
          p = nl + 1;
          continue;
        }
        if (isEnvelopeLine(chunk, p, nl)) {
          mode = 'mbox';
          startEnvelope(chunk, p, nl);
          runStart = nl + 1;
        } else {
          mode = 'single';
          runStart = p;
        }
        break;
      }
      if (mode === 'start') {
        pending = Buffer.from(chunk);
        continue;
      }
    } else if (pending.length) {
      // The line that spans the chunk boundary: join just that line (the chunk itself is not copied).
      const firstNl = chunk.indexOf(NL);
      if (firstNl < 0) {
        pending = Buffer.concat([pending, chunk]);
        continue;
      }
      const boundary = Buffer.concat([pending, chunk.subarray(0, firstNl + 1)]);
      pending = Buffer.alloc(0);
      const rest = mode === 'mbox' ? yield* scan(boundary, 0, boundary.length) : 0;
      if (rest < boundary.length) {
        // The boundary line is content: its newline stays with the chunk, so a `\nFrom ` right after it is seen.
        parts.push(boundary.subarray(rest, boundary.length - 1));
        runStart = firstNl;
      } else runStart = firstNl + 1;
    }
    // Everything up to the last newline is settled; the partial line after it waits for more bytes.
    const lastNl = chunk.lastIndexOf(NL);
    const settled = lastNl < runStart ? runStart : lastNl;
    if (mode === 'mbox') runStart = yield* scan(chunk, runStart, settled);
    // Keep the unsettled tail, with the newline before it, so a `\nFrom ` across chunks is seen.
    const keep = Math.max(runStart, settled);
    if (keep > runStart) parts.push(chunk.subarray(runStart, keep));
    pending = chunk.subarray(keep);
  }
  if (pending.length) {
    if (mode === 'start') mode = pending.toString('latin1').trim() ? 'single' : 'start';
    parts.push(pending);
  }
  const done = flush(pending.length > 0 && pending[pending.length - 1] !== NL);
  if (done) yield done;
}
