/** Reviewed-by / Acked-by / Tested-by in one action, on one patch, several, or the cover letter. */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { createReply } from '../../core/reply/create';
import { parseDraft } from '../../core/reply/draft';
import { appendTrailers, trailerLine, TRAILER_NAMES, TrailerName } from '../../core/reply/trailers';
import { CancelledError, UserError } from '../../platform/errors';
import type { FeatureContext } from '../context';
import type { ReplyParts } from './parts';

type Arg = { kind?: string; key?: string; version?: number; messageId?: string } | undefined;

/** Replaces the body of a draft, keeping its headers byte for byte. */
function withBody(text: string, body: string): string {
  const norm = text.replace(/\r\n?/g, '\n');
  const sep = norm.indexOf('\n\n');
  return sep < 0 ? `${norm}\n\n${body}` : `${norm.slice(0, sep)}\n\n${body}`;
}

export function registerTrailerCommand(ctx: FeatureContext, p: ReplyParts): void {
  ctx.command('kernelReview.reply.addTrailer', 'Add Trailer', async (arg?: Arg, name?: TrailerName) => {
    const key = arg?.key ?? (await vscode.window.showQuickPick(ctx.store.list().map((s) => ({ label: s.key, key: s.key })), { placeHolder: 'Which thread?' }))?.key;
    if (!key) throw new CancelledError();
    const t = await ctx.store.get(key);
    if (!t) throw new UserError('That thread is no longer imported.');
    const trailer = name ?? ((await vscode.window.showQuickPick([...TRAILER_NAMES], { placeHolder: 'Which trailer?' })) as TrailerName | undefined);
    if (!trailer) throw new CancelledError();
    let targets: string[];
    if (arg?.kind === 'patch' && arg.messageId) targets = [arg.messageId];
    else {
      const series = t.thread.series.filter((s) => arg?.version === undefined || s.version === arg.version);
      const items = series.flatMap((s) => [
        ...(s.coverMessageId ? [{ label: `v${s.version} cover letter: ${s.title}`, description: 'applies to the whole series', id: s.coverMessageId, picked: true }] : []),
        ...s.patches.map((x) => ({ label: `v${s.version} ${x.subject.index ?? ''}/${s.total} ${x.commitTitle}`, description: '', id: x.messageId, picked: !s.coverMessageId })),
      ]);
      const picked = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: `${trailer}: on which patches (the cover letter covers them all)?` });
      if (!picked?.length) throw new CancelledError();
      targets = picked.map((x) => x.id);
    }
    const identity = await p.identity();
    const line = trailerLine(trailer, identity);
    const files: string[] = [];
    for (const messageId of targets) {
      const existing = await p.drafts.findReplyTo(messageId);
      if (existing) {
        const text = await readFile(existing.file, 'utf8');
        files.push((await p.drafts.save(withBody(text, appendTrailers(parseDraft(text).body, [line])), existing.id)).file);
      } else {
        const r = createReply({ thread: t.thread, messageId, comments: [], trailers: [trailer], identity });
        files.push((await p.drafts.save(r.text)).file);
      }
    }
    if (files.length === 1) return p.openDraft(files[0]);
    const open = await vscode.window.showInformationMessage(`${trailer} added to ${files.length} reply drafts.`, 'Open Drafts');
    if (open) for (const f of files) await p.openDraft(f);
    return files;
  });
}

