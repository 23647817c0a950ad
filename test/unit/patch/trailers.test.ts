/**
 * parseTrailers on real commit messages (git's t5100 expected messages) and
 * canonical trailer names; reply-trailer collection is covered by the b4 samples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { fixture } from '../fixtures';
import { canonicalTrailerName, findReplyTrailers, parseTrailers } from '../../../src/core/patch/trailers';

const msg = (n: string) => fs.readFileSync(fixture('patch', 'git-t5100', `msg${n}`), 'utf8');
const lines = (ts: { name: string; value: string }[]) => ts.map((t) => `${t.name}: ${t.value}`);

test('the last paragraph of trailers is read, with the carrying Message-ID', () => {
  const ts = parseTrailers(msg('0010'), '<id@x>');
  assert.deepEqual(lines(ts), [
    'Signed-off-by: Lukas Sandström <lukass@etek.chalmers.se>',
    'Signed-off-by: Junio C Hamano <gitster@pobox.com>',
  ]);
  assert.ok(ts.every((t) => t.messageId === '<id@x>'));
});

test('a misspelt token is still a trailer line (git takes any Token: value)', () => {
  assert.deepEqual(lines(parseTrailers(msg('0004'), '<m>')), ['Signed-of-by: Hideaki YOSHIFUJI <yoshfuji@linux-ipv6.org>']);
});

test('a message without a trailer block gives none', () => {
  assert.deepEqual(parseTrailers(msg('0002'), '<m>'), []);
  assert.deepEqual(parseTrailers('', '<m>'), []);
});

test('well-known names are canonicalised, others kept', () => {
  assert.equal(canonicalTrailerName('reviewed-BY'), 'Reviewed-by');
  assert.equal(canonicalTrailerName('Message-Id'), 'Message-ID');
  assert.equal(canonicalTrailerName('CC'), 'Cc');
  assert.equal(canonicalTrailerName('co-developed-by'), 'Co-developed-by');
  assert.equal(canonicalTrailerName('X-Custom-Tag'), 'X-Custom-Tag');
});

test('reply trailers: Link URLs are ignored, Fixes kept, nothing under the signature', () => {
  const body = [
    '> quoted patch line',
    '> Signed-off-by: Author <author@example.com>',
    '',
    'Fixes: abcdef012345 ("io_uring: something',
    'wrapped")',
    'Link: https://lore.kernel.org/r/x@y',
    'Reviewed-by: Rev Iewer',
    '<rev@example.com>',
    '',
    '-- ',
    'Acked-by: Sig Nature <sig@example.com>',
  ].join('\n');
  assert.deepEqual(lines(findReplyTrailers(body, '<r>')), [
    'Fixes: abcdef012345 ("io_uring: something wrapped")',
    'Reviewed-by: Rev Iewer <rev@example.com>',
  ]);
});
