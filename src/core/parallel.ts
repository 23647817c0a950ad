/**
 * Decodes mails on worker threads while the main thread keeps reading and
 * splitting the input. Batches travel as one transferred buffer; results come
 * back in input order. At most one batch per worker (plus one) is in flight, so memory
 * stays bounded on archives of any size.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { RawMail } from './model';
import { Item } from './item';

const BATCH = 256;

export interface WorkerBatch {
  id: number;
  light: boolean;
  data: Uint8Array;
  /** [offset, length, index] per message, plus the shared source. */
  spans: number[];
  source: string[];
}

export interface WorkerResult {
  id: number;
  items?: Item[];
  error?: string;
}

/** The worker script next to the running bundle, or null (then decoding stays on this thread). */
export function workerScript(): string | null {
  const p = join(__dirname, 'import-worker.js');
  return existsSync(p) ? p : null;
}

export function defaultWorkers(): number {
  const env = Number(process.env.KERNEL_REVIEW_WORKERS);
  if (Number.isInteger(env) && env >= 0) return env;
  // The main thread reads, splits and assembles (about a third of the work): leave it one core.
  return Math.max(0, Math.min(3, availableParallelism() - 1));
}

function pack(id: number, light: boolean, mails: RawMail[]): WorkerBatch {
  const total = mails.reduce((n, m) => n + m.bytes.length, 0);
  const data = new Uint8Array(total);
  const spans: number[] = [];
  let off = 0;
  for (const m of mails) {
    data.set(m.bytes, off);
    spans.push(off, m.bytes.length, m.index);
    off += m.bytes.length;
  }
  return { id, light, data, spans, source: mails.map((m) => m.source) };
}

export async function* decodeInWorkers(
  mails: AsyncIterable<RawMail>,
  opts: { light: boolean; workers: number; script: string; signal?: AbortSignal },
): AsyncGenerator<Item> {
  const workers = Array.from({ length: opts.workers }, () => new Worker(opts.script));
  const pending = new Map<number, { resolve: (r: WorkerResult) => void; promise: Promise<WorkerResult> }>();
  for (const w of workers) {
    w.on('message', (r: WorkerResult) => pending.get(r.id)?.resolve(r));
    w.on('error', (e) => {
      for (const p of pending.values()) p.resolve({ id: -1, error: e.message });
    });
  }
  const order: number[] = [];
  let next = 0;
  const send = (batch: RawMail[]) => {
    const id = next++;
    let resolve!: (r: WorkerResult) => void;
    const promise = new Promise<WorkerResult>((r) => (resolve = r));
    pending.set(id, { resolve, promise });
    order.push(id);
    const msg = pack(id, opts.light, batch);
    workers[id % workers.length].postMessage(msg, [msg.data.buffer as ArrayBuffer]);
  };
  async function* drain(keep: number): AsyncGenerator<Item> {
    while (order.length > keep) {
      const id = order.shift()!;
      const r = await pending.get(id)!.promise;
      pending.delete(id);
      if (r.error) throw new Error(r.error);
      yield* r.items ?? [];
    }
  }
  try {
    let batch: RawMail[] = [];
    for await (const m of mails) {
      if (opts.signal?.aborted) throw new Error('cancelled');
      batch.push(m);
      if (batch.length === BATCH) {
        send(batch);
        batch = [];
        yield* drain(workers.length + 1);
      }
    }
    if (batch.length) send(batch);
    yield* drain(0);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
