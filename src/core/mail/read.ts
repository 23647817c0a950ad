/**
 * Turns what the user gave us (paths, `-`) into a stream of raw messages:
 * mbox (mboxo/mboxrd), gzip-compressed mbox, single messages with or without an
 * envelope line, Maildir folders. Nothing is held beyond the current message.
 */
import { createReadStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { InputError, RawMail } from '../model';
import { splitMbox } from './mbox';
import { checkSingleText, renderedToRfc822 } from './degraded';

export interface ReadOptions {
  /** Stream read for the input `-`. */
  stdin?: NodeJS.ReadableStream;
}

const GZIP_MAGIC = [0x1f, 0x8b];

async function* chunksOf(stream: NodeJS.ReadableStream, source: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    }
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'Z_DATA_ERROR' || err.code === 'Z_BUF_ERROR' || err.code === 'Z_NEED_DICT') {
      throw new InputError(source, 'is not valid gzip data (the compressed stream is damaged or truncated)');
    }
    if (err.code === 'EISDIR') throw new InputError(source, 'is a directory, not a mail file');
    if (err.code === 'EACCES') throw new InputError(source, 'cannot be read (permission denied)');
    throw e;
  }
}

/** Peeks the first bytes of a stream and returns them with a stream of everything. */
async function* withPeek(chunks: AsyncGenerator<Buffer>, onFirst: (first: Buffer) => void): AsyncGenerator<Buffer> {
  let first = true;
  for await (const c of chunks) {
    if (first) {
      onFirst(c);
      first = false;
    }
    yield c;
  }
  if (first) onFirst(Buffer.alloc(0));
}

async function* decompressIfGzip(raw: AsyncGenerator<Buffer>, source: string): AsyncGenerator<Buffer> {
  const it = raw[Symbol.asyncIterator]();
  const head = await it.next();
  if (head.done) {
    if (source.endsWith('.gz')) throw new InputError(source, 'is empty, not gzip data');
    return;
  }
  const firstChunk = head.value;
  const isGzip = firstChunk.length >= 2 && firstChunk[0] === GZIP_MAGIC[0] && firstChunk[1] === GZIP_MAGIC[1];
  async function* rest(): AsyncGenerator<Buffer> {
    yield firstChunk;
    for (;;) {
      const n = await it.next();
      if (n.done) return;
      yield n.value;
    }
  }
  if (!isGzip) {
    if (/\.gz$/i.test(source)) throw new InputError(source, 'is named .gz but is not gzip data');
    yield* rest();
    return;
  }
  const gunzip = createGunzip();
  const { Readable } = await import('node:stream');
  Readable.from(rest()).on('error', (e) => gunzip.destroy(e)).pipe(gunzip);
  yield* chunksOf(gunzip, source);
}

async function* readStream(stream: NodeJS.ReadableStream, source: string): AsyncGenerator<RawMail> {
  let index = 0;
  let sawBytes = false;
  const bytes = withPeek(decompressIfGzip(chunksOf(stream, source), source), (first) => {
    sawBytes = first.length > 0;
  });
  for await (const m of splitMbox(bytes)) {
    if (m.envelope === null && index === 0) checkSingleText(m.bytes, source);
    else if (m.envelope !== null && m.envelope.length > 998) checkSingleText(Buffer.from(m.envelope + '\n'), source);
    if (m.unterminated && m.envelope !== null && index > 0) {
      throw new InputError(source, `is truncated: it ends in the middle of message ${index + 1}`);
    }
    const mail = m.envelope === null && index === 0 ? renderedToRfc822(m.bytes) : m.bytes;
    yield { bytes: mail, source, index: index++ };
  }
  if (!sawBytes) throw new InputError(source, 'is empty');
  if (index === 0) throw new InputError(source, 'holds no mail messages');
}

async function isMaildir(dir: string): Promise<boolean> {
  const [cur, nw] = await Promise.all([
    fs.stat(join(dir, 'cur')).catch(() => null),
    fs.stat(join(dir, 'new')).catch(() => null),
  ]);
  return !!(cur?.isDirectory() || nw?.isDirectory());
}

async function* readMaildir(dir: string): AsyncGenerator<RawMail> {
  let index = 0;
  for (const sub of ['cur', 'new']) {
    const names = (await fs.readdir(join(dir, sub)).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
    for (const name of names) {
      const path = join(dir, sub, name);
      for await (const m of readStream(createReadStream(path), path)) yield { ...m, index: index++ };
    }
  }
  if (index === 0) throw new InputError(dir, 'is a Maildir with no messages');
}

/** Reads every input in order and yields their messages one at a time. */
export async function* readMails(inputs: string[], opts: ReadOptions = {}): AsyncGenerator<RawMail> {
  if (inputs.length === 0) throw new InputError('(no input)', 'no mail file was given');
  for (const input of inputs) {
    if (input === '-') {
      yield* readStream(opts.stdin ?? process.stdin, '-');
      continue;
    }
    const st = await fs.stat(input).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw new InputError(input, 'does not exist');
      if (e.code === 'EACCES') throw new InputError(input, 'cannot be read (permission denied)');
      throw e;
    });
    if (st.isDirectory()) {
      if (!(await isMaildir(input))) throw new InputError(input, 'is a directory but not a Maildir (it has no cur/ or new/ folder)');
      yield* readMaildir(input);
    } else {
      yield* readStream(createReadStream(input, { highWaterMark: 1 << 20 }), input);
    }
  }
}
