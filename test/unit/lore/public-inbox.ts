/** Typed access to scripts/public-inbox-server.mjs for the tests that need a real server. */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../fixtures';

export interface PublicInboxServer {
  root: string;
  base: string;
  url(name: string): string;
  deliver(name: string, raw: Buffer): Promise<void>;
  stop(opts?: { keep?: boolean }): Promise<void>;
}

export interface InboxSpec {
  name: string;
  mboxes?: string[];
  version?: 1 | 2;
}

interface ServerModule {
  startPublicInbox(opts: { inboxes: InboxSpec[] }): Promise<PublicInboxServer>;
  splitMbox(buf: Buffer): Buffer[];
}

function installed(): boolean {
  return ['public-inbox-init', 'public-inbox-mda', 'public-inbox-httpd', 'public-inbox-index'].every(
    (p) => spawnSync('sh', ['-c', 'command -v "$1"', 'sh', p]).status === 0,
  );
}

/** `false` when public-inbox is installed, else the reason the tests are skipped. */
export const SKIP_WITHOUT_PUBLIC_INBOX: false | string = installed()
  ? false
  : 'public-inbox is not installed (apt-get install public-inbox, or scripts/ci-public-inbox.sh); these tests need a real server';

async function load(): Promise<ServerModule> {
  const file = path.join(repoRoot(), 'scripts', 'public-inbox-server.mjs');
  // A runtime import: the script is plain ESM, shared with manual use.
  return (await import(pathToFileURL(file).href)) as ServerModule;
}

export async function startPublicInbox(inboxes: InboxSpec[]): Promise<PublicInboxServer> {
  return (await load()).startPublicInbox({ inboxes });
}

export async function splitMbox(buf: Buffer): Promise<Buffer[]> {
  return (await load()).splitMbox(buf);
}
