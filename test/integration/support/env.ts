/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KernelReviewApi } from '../../../src/extension';
import type { ReviewComments } from '../../../src/features/comments/controller';
import type { ErrorReport } from '../../../src/platform/commands';

export const EXTENSION_ID = 'kernel-patch-review.kernel-patch-review';

/** The folder holding package.json, found from the bundled test file. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + __dirname);
    dir = up;
  }
  return dir;
}

export const fixture = (...parts: string[]) => path.join(repoRoot(), 'test', 'fixtures', 'vscode', ...parts);

export interface Api extends KernelReviewApi {
  comments: ReviewComments;
  navigation: { current: number; item: vscode.StatusBarItem };
}

export async function activate(): Promise<Api> {
  const ext = vscode.extensions.getExtension<KernelReviewApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  assert.ok(api, 'activate() returned no API (activation failed: see the Kernel Review log)');
  await api.store.whenReady();
  await api.index.whenReady();
  await (api as Api).comments.whenSynced();
  return api as Api;
}

export function workspaceDir(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'the tests need a workspace folder');
  return f.uri.fsPath;
}

/** Waits until the comment threads match the imported and applied state. */
export async function settled(api: Api): Promise<void> {
  await api.index.whenReady();
  await api.comments.whenSynced();
}

/** Runs `fn` and returns the error reports the command wrapper made meanwhile. */
export async function errorsDuring(api: Api, fn: () => Thenable<unknown>): Promise<ErrorReport[]> {
  const seen: ErrorReport[] = [];
  const sub = api.onDidReportError((e) => seen.push(e));
  try {
    await fn();
  } finally {
    sub.dispose();
  }
  return seen;
}

export const expected = () =>
  JSON.parse(fs.readFileSync(fixture('expected.json'), 'utf8')) as Record<string, {
    root: string;
    conversations: { startsWith: string; file: string; side: 'new' | 'old'; line: number; text: string; answers?: string[] }[];
  }>;

/** Waits until `cond` holds (UI state is updated asynchronously). */
export async function until<T>(what: string, cond: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
