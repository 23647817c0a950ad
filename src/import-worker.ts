/** Worker thread entry: decodes batches of raw mails for the import (see core/parallel.ts). */
import { parentPort } from 'node:worker_threads';
import { itemOf } from './core/item';
import type { WorkerBatch, WorkerResult } from './core/parallel';

parentPort?.on('message', async (b: WorkerBatch) => {
  try {
    const data = Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength);
    const items = [];
    for (let i = 0, k = 0; i < b.spans.length; i += 3, k++) {
      const bytes = data.subarray(b.spans[i], b.spans[i] + b.spans[i + 1]);
      items.push(await itemOf({ bytes, source: b.source[k], index: b.spans[i + 2] }, b.light));
    }
    parentPort!.postMessage({ id: b.id, items } satisfies WorkerResult);
  } catch (e) {
    parentPort!.postMessage({ id: b.id, error: e instanceof Error ? e.message : String(e) } satisfies WorkerResult);
  }
});
