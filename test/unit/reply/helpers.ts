import { readFileSync } from 'node:fs';
import { findThread, loadThreads } from '../../../src/core/load';
import { Address, Thread } from '../../../src/core/model';
import { fixture } from '../fixtures';

export const REVIEWER: Address = { name: 'Jöhn Q. Revïewer', address: 'john@example.org' };

export async function thread(file: string, messageId: string): Promise<Thread> {
  const t = findThread(await loadThreads([fixture('reply', file)]), messageId);
  if (!t) throw new Error(`${file} holds no ${messageId}`);
  return t;
}

export const readFixture = (...parts: string[]): string => readFileSync(fixture('reply', ...parts), 'utf8');

/** Appends one mail to an mbox in mboxrd form (what a list archive would store). */
export function appendMboxrd(mbox: Buffer, mail: Buffer): Buffer {
  const text = mail
    .toString('utf8')
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => (/^>*From /.test(l) ? `>${l}` : l))
    .join('\n');
  const sep = mbox.length && !mbox.toString('latin1').endsWith('\n\n') ? '\n' : '';
  return Buffer.concat([mbox, Buffer.from(`${sep}From mboxrd@z Thu Jan  1 00:00:00 1970\n${text.replace(/\n*$/, '\n')}\n`, 'utf8')]);
}
