/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { renderMail as renderDraft } from '../../../src/core/reply/draft';
import { diffKey, renderMail } from '../../../src/features/comments/mailview';
import { gitUri, messageUri } from '../../../src/features/comments/uris';
import type { ReplyParts } from '../../../src/features/reply/parts';
import { startSink } from '../../unit/reply/sink';
import { type Api, activate, errorsDuring, fixture } from '../support/env';

const ROOT = '<cover.1581851604.git.asml.silence@gmail.com>';
const PATCH = '<a49db514f8b0b7d509c50ed0185688ece5830363.1581851604.git.asml.silence@gmail.com>';
const ME = 'Jöhn Q. Revïewer <john@example.org>';

suite('reply', () => {
  let api: Api;
  let reply: ReplyParts;
  suiteSetup(async () => {
    api = await activate();
    reply = (api as unknown as { reply: ReplyParts }).reply;
    assert.ok(reply, 'the reply feature publishes its parts');
    await vscode.workspace.getConfiguration('kernelReview.reply').update('from', ME, vscode.ConfigurationTarget.Workspace);
  });

  test('inline comments stay pending, Reply makes a trimmed draft, Send delivers it over SMTP, re-import puts them back', async () => {
    const t = (await api.store.get(ROOT))!;
    const m = t.thread.messages.find((x) => x.messageId === PATCH)!;
    // 1. "Comment on this line" in the patch mail, and on a file of the review branch (applied earlier in this run).
    const mailUri = messageUri(ROOT, PATCH, m.subject);
    await vscode.window.showTextDocument(mailUri);
    const mailLine = renderMail(m).diffLines.get(diffKey('src/include/liburing.h', 'new', 200))!;
    const onMail = reply.view.openAt(mailUri, mailLine);
    await vscode.commands.executeCommand('kernelReview.reply.addComment', { thread: onMail, text: 'Casting off_in to a pointer looks odd here.' });
    const applied = t.applied.find((a) => !a.failed)!;
    const tipUri = gitUri(applied.tree, applied.commits[applied.commits.length - 1].sha, 'src/include/liburing/io_uring.h');
    const onTip = reply.view.openAt(tipUri, 51);
    await vscode.commands.executeCommand('kernelReview.reply.addComment', { thread: onTip, text: 'Should splice_fd_in be __s32? It is a file descriptor.' });
    const pending = await reply.pending.forMessage(PATCH);
    assert.deepEqual(pending.map((c) => (c.kind === 'line' ? [c.file, c.side, c.line] : c.kind)), [
      ['src/include/liburing.h', 'new', 200],
      ['src/include/liburing/io_uring.h', 'new', 52],
    ]);
    assert.equal(onMail.comments[0].label, 'Pending');

    // 2. Reply: the draft opens in the review-mail language; the pending comments went into it.
    const editor = (await vscode.commands.executeCommand<vscode.TextEditor>('kernelReview.reply', { kind: 'patch', key: ROOT, messageId: PATCH }))!;
    assert.equal(editor.document.languageId, 'kernel-review-mail');
    const draft = editor.document.getText();
    assert.match(draft, /^From: "Jöhn Q\. Revïewer" <john@example\.org>$/m);
    assert.match(draft, /^Subject: Re: \[PATCH v2 1\/2\] splice: add splice\(2\) helpers$/m);
    assert.match(draft, /^> @@ -45,6 \+49,7 @@ struct io_uring_sqe \{\n>  \t\t\t__u16\tbuf_index;\n/m);
    assert.ok(draft.trimEnd().endsWith('Should splice_fd_in be __s32? It is a file descriptor.'), 'nothing quoted after the last comment');
    assert.equal((await reply.pending.forMessage(PATCH)).length, 0);

    // 3. A trailer in one action lands in the same draft.
    await vscode.commands.executeCommand('kernelReview.reply.addTrailer', { kind: 'patch', key: ROOT, messageId: PATCH }, 'Reviewed-by');
    const file = editor.document.uri.fsPath;
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.endsWith(`\n\nReviewed-by: ${ME}\n`), text.slice(-200));

    // 4. Send through a real SMTP server on loopback, after the confirmation.
    const sink = await startSink();
    try {
      const c = vscode.workspace.getConfiguration('kernelReview.reply');
      await c.update('sendMethod', 'smtp', vscode.ConfigurationTarget.Workspace);
      await c.update('smtp.host', '127.0.0.1', vscode.ConfigurationTarget.Workspace);
      await c.update('smtp.port', sink.port, vscode.ConfigurationTarget.Workspace);
      await c.update('smtp.security', 'none', vscode.ConfigurationTarget.Workspace);
      let shown = '';
      reply.confirm = async (detail) => ((shown = detail), true);
      const errors = await errorsDuring(api, () => vscode.commands.executeCommand('kernelReview.reply.send', editor.document.uri));
      assert.deepEqual(errors, []);
      assert.match(shown, /^From: Jöhn Q\. Revïewer <john@example\.org>$/m);
      assert.match(shown, /^To: Pavel Begunkov <asml\.silence@gmail\.com>$/m);
      assert.match(shown, /^Cc: Jens Axboe <axboe@kernel\.dk>, io-uring@vger\.kernel\.org$/m);
      assert.match(shown, /^Subject: Re: \[PATCH v2 1\/2\] splice: add splice\(2\) helpers$/m);
      const [got] = sink.received();
      const sentCopy = fs.readFileSync(path.join(reply.sent.folder, path.basename(file)), 'utf8');
      assert.equal(sentCopy.replace(/^Date: .*$/m, ''), text.replace(/^Date: .*$/m, ''), 'only the Date was set at sending');
      assert.ok(got.bytes.equals(renderDraft(sentCopy, { eol: '\r\n' })), 'the server received the draft as composed');
      assert.ok(!fs.existsSync(file), 'a sent draft leaves the drafts');

      // 5. The sent mail, added to the thread's mbox and imported again: the comments are on the same lines.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kr-reply-'));
      const mbox = path.join(dir, 'with-reply.mbox');
      const mail = got.bytes.toString('utf8').replace(/\r\n/g, '\n').replace(/^(>*From )/gm, '>$1');
      fs.writeFileSync(mbox, `${fs.readFileSync(fixture('liburing-splice-helpers-v2.mbox'), 'utf8')}\nFrom mboxrd@z Thu Jan  1 00:00:00 1970\n${mail}\n`);
      await vscode.commands.executeCommand('kernelReview.importMbox', vscode.Uri.file(mbox));
      await api.index.whenReady();
      const mine = (await api.store.get(ROOT))!.comments.filter((x) => x.author.address === 'john@example.org');
      assert.deepEqual(mine.map((x) => [x.patchMessageId, x.file, x.side, x.line, x.body]), [
        [PATCH, 'src/include/liburing.h', 'new', 200, 'Casting off_in to a pointer looks odd here.'],
        [PATCH, 'src/include/liburing/io_uring.h', 'new', 52, 'Should splice_fd_in be __s32? It is a file descriptor.'],
      ]);
      assert.ok(api.index.list().some((p) => p.comments.some((x) => x.author.address === 'john@example.org')), 'shown as comment threads');
    } finally {
      await sink.stop();
    }
  });

  test('a failed send is one sentence and keeps the draft', async () => {
    const editor = (await vscode.commands.executeCommand<vscode.TextEditor>('kernelReview.reply', { kind: 'patch', key: ROOT, messageId: PATCH }))!;
    const file = editor.document.uri.fsPath;
    const before = fs.readFileSync(file, 'utf8');
    // Nothing listens on this port any more.
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const c = vscode.workspace.getConfiguration('kernelReview.reply');
    await c.update('sendMethod', 'smtp', vscode.ConfigurationTarget.Workspace);
    await c.update('smtp.host', '127.0.0.1', vscode.ConfigurationTarget.Workspace);
    await c.update('smtp.port', port, vscode.ConfigurationTarget.Workspace);
    await c.update('smtp.security', 'none', vscode.ConfigurationTarget.Workspace);
    reply.confirm = async () => true;
    const errors = await errorsDuring(api, () => vscode.commands.executeCommand('kernelReview.reply.send', editor.document.uri));
    assert.equal(errors.length, 1);
    console.log(`[error shown] ${errors[0].message}`);
    assert.match(errors[0].message, /^Could not connect to the SMTP server 127\.0\.0\.1:\d+ \(ECONNREFUSED\)\.$/);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
    await vscode.workspace.getConfiguration('kernelReview.reply').update('sendMethod', undefined, vscode.ConfigurationTarget.Workspace);
  });
});
