/// <reference types="mocha" />
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { fixture, repoRoot } from '../support/env';
import { captureTokens } from '../support/tokens';

/**
 * Golden colorize tests, the way VS Code tests its own grammars: VS Code's TextMate engine tokenizes the
 * file (see captureTokens); the scopes are compared with `<name>.tokens.json`.
 * Set KERNEL_REVIEW_UPDATE_GOLDEN=1 to rewrite the golden files (then read them before committing).
 */
const grammarFile = () => `${repoRoot()}/syntaxes/kernel-review-mail.tmLanguage.json`;

suite('review-mail grammar', () => {
  const dir = fixture('colorize');
  const cases = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));

  test('.eml and .mbox files open in the review-mail language; .patch stays diff', async () => {
    const eml = await vscode.workspace.openTextDocument(vscode.Uri.file(`${dir}/${cases[0]}`));
    assert.equal(eml.languageId, 'kernel-review-mail');
    const mbox = await vscode.workspace.openTextDocument(vscode.Uri.file(fixture('io_uring-register-compat-guard.mbox')));
    assert.equal(mbox.languageId, 'kernel-review-mail');
    const patch = await vscode.workspace.openTextDocument({ language: 'diff', content: 'diff --git a/x b/x\n' });
    assert.equal(patch.languageId, 'diff');
    const langs = await vscode.languages.getLanguages();
    assert.ok(langs.includes('kernel-review-mail'));
  });

  for (const name of cases) {
    test(`tokens of ${name} match the golden file`, async () => {
      const uri = vscode.Uri.file(`${dir}/${name}`);
      const { engine, tokens } = await captureTokens(uri, grammarFile());
      console.log(`[grammar] ${name}: ${tokens.length} tokens by ${engine}`);
      assert.ok(tokens.length > 0, 'tokens captured');
      const golden = `${dir}/${name.replace(/\.eml$/, '.tokens.json')}`;
      if (process.env.KERNEL_REVIEW_UPDATE_GOLDEN === '1') fs.writeFileSync(golden, JSON.stringify(tokens, null, 1) + '\n');
      assert.ok(fs.existsSync(golden), `${golden} is missing (run with KERNEL_REVIEW_UPDATE_GOLDEN=1 and review it)`);
      assert.deepEqual(tokens, JSON.parse(fs.readFileSync(golden, 'utf8')));
    });
  }

  test('the scopes a reader relies on are there', async () => {
    const { tokens } = await captureTokens(vscode.Uri.file(`${dir}/nested-reply.eml`), grammarFile());
    const scopeOf = (text: string) => tokens.find((x) => x.c.includes(text))?.t ?? '(not found)';
    // nested-reply.eml is Jens Axboe's answer to Jeff Moyer's review: read it to follow these
    assert.match(scopeOf('Re: [PATCH] io_uring/register: guard compat syscall with'), /meta\.headers.*markup\.heading\.subject/);
    assert.match(tokens.find((x) => x.c === '<x49il3suf1q.fsf@segfault.usersys.redhat.com>')?.t ?? '', /constant\.other\.message-id/);
    assert.match(scopeOf('On 1/17/24 8:59 AM, Jeff Moyer wrote:'), /^text\.mail\.kernel-review meta\.attribution/);
    assert.match(scopeOf('Jens Axboe <axboe@kernel.dk> writes:'), /markup\.quote\.level-1.*meta\.attribution/);
    assert.match(scopeOf('+#ifdef CONFIG_COMPAT'), /markup\.quote\.level-2.*markup\.inserted\.diff/);
    assert.match(scopeOf('-\tif (in_compat_syscall()) {'), /markup\.quote\.level-2.*markup\.deleted\.diff/);
    assert.match(scopeOf('@@ -278,13 +279,14 @@'), /markup\.quote\.level-2.*meta\.diff\.range\.unified/);
    assert.match(scopeOf('Reported-by: Manu Bretelle'), /markup\.quote\.level-2/);
    assert.match(scopeOf("I don't think this is needed."), /markup\.quote\.level-1/);
    assert.equal(scopeOf('It probably is, but this makes it consistent'), 'text.mail.kernel-review');
    assert.match(tokens.filter((x) => x.c === 'Jens Axboe').at(-1)?.t ?? '', /comment\.block\.signature/);
    const { tokens: patch } = await captureTokens(vscode.Uri.file(`${dir}/patch.eml`), grammarFile());
    const inPatch = (text: string) => patch.find((x) => x.c.includes(text))?.t ?? '(not found)';
    assert.match(inPatch('Signed-off-by'), /keyword\.other\.trailer/);
    assert.match(inPatch('#include <linux/compat.h>'), /meta\.embedded\.diff.*markup\.inserted\.diff/);
    assert.match(inPatch('diff --git a/io_uring/register.c'), /meta\.embedded\.diff/);
    assert.match(inPatch('Reported-by'), /keyword\.other\.trailer/);
    assert.match(inPatch('c43203154d8a ("io_uring/register'), /string\.unquoted\.trailer/);
    assert.match(inPatch('-14,6 +14,7'), /meta\.embedded\.diff.*meta\.diff\.range\.unified/);
    assert.match(patch.filter((x) => x.c === 'Jens Axboe').at(-1)?.t ?? '', /comment\.block\.signature/);
    assert.match(inPatch('Add compat.h include to avoid a potential build issue:'), /^text\.mail\.kernel-review$/);
  });
});
