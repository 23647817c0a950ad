import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unsafePathReason } from '../../../src/core/git/safety';

test('diff paths that leave the tree, are absolute or reach into .git are refused', () => {
  const refused: Array<[string, RegExp]> = [
    ['../evil', /leaves the tree/],
    ['fs/../../evil', /leaves the tree/],
    ['/etc/passwd', /absolute/],
    ['C:\\Windows\\x', /absolute/],
    ['.git/hooks/post-checkout', /\.git directory/],
    ['sub/.GIT/config', /\.git directory/],
    ['GIT~1/config', /\.git directory/],
    ['.git. /config', /\.git directory/],
    ['', /empty/],
  ];
  for (const [p, why] of refused) assert.match(unsafePathReason(p) ?? '', why, p);
  for (const p of ['io_uring/io_uring.c', 'Documentation/ABI/stable/sysfs-block', '.github/workflows/build.yml', 'a..b/c', '.gitignore', 'tools/.gitattributes']) {
    assert.equal(unsafePathReason(p), null, p);
  }
});
