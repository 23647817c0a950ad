/**
 * The mail pipeline (read, parse, thread, anchor comments) run in a worker thread, so that importing a list
 * archive never blocks the extension host. The worker loads this same bundle (dist/extension.js) with a
 * stand-in for the `vscode` module, which the pipeline never touches, and calls `runImportWorker`.
 * Each thread comes back as its own message, so the extension host deserializes one small piece at a time.
 */
import type { ReviewComment, Thread } from '../../core/model';
import { InputError } from '../../core/model';

export type WorkerMessage =
  | { type: 'progress'; messages: number }
  | { type: 'thread'; thread: Thread; comments: ReviewComment[] }
  | { type: 'done'; threads: number }
  | { type: 'error'; inputError: { file: string; problem: string } | null; message: string };

interface Port {
  postMessage(m: WorkerMessage): void;
}

/** Worker side. */
export async function runImportWorker(inputs: string[], port: Port): Promise<void> {
  try {
    const { loadThreads } = require('../../core/load') as typeof import('../../core/load');
    const { extractComments } = require('../../core/review') as typeof import('../../core/review');
    const threads = await loadThreads(inputs, { onProgress: (messages) => port.postMessage({ type: 'progress', messages }) });
    for (const thread of threads) port.postMessage({ type: 'thread', thread, comments: extractComments(thread) });
    port.postMessage({ type: 'done', threads: threads.length });
  } catch (e) {
    const inputError = e instanceof InputError ? { file: e.file, problem: e.problem } : null;
    port.postMessage({ type: 'error', inputError, message: e instanceof Error ? e.message : String(e) });
  }
}

const BOOT = `
const { workerData, parentPort } = require('worker_threads');
const Module = require('module');
const load = Module._load;
Module._load = function (request) { return request === 'vscode' ? {} : load.apply(this, arguments); };
require(workerData.bundle).runImportWorker(workerData.inputs, parentPort);
`;

/** Extension side: runs the import in a worker; `onMessage` gets every message; resolves when the worker is done. */
export function importInWorker(inputs: string[], onMessage: (m: WorkerMessage) => void, signal: AbortSignal): Promise<void> {
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOT, { eval: true, workerData: { bundle: __filename, inputs } });
    const stop = () => void worker.terminate();
    signal.addEventListener('abort', stop, { once: true });
    let finished = false;
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'error') {
        finished = true;
        reject(m.inputError ? new InputError(m.inputError.file, m.inputError.problem) : new Error(m.message));
        stop();
        return;
      }
      onMessage(m);
      if (m.type === 'done') {
        finished = true;
        resolve();
        stop();
      }
    });
    worker.on('error', (e) => {
      finished = true;
      reject(e);
    });
    worker.on('exit', () => {
      signal.removeEventListener('abort', stop);
      if (!finished) reject(new Error(signal.aborted ? 'cancelled' : 'the import worker stopped unexpectedly'));
    });
  });
}
