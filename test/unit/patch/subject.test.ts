import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSubject } from '../../../src/core/patch/subject';
import type { SubjectInfo } from '../../../src/core/model';

type Row = [string, Partial<SubjectInfo>];

// Every prefix form kernel, git and hg users write. Expected values read off the subject.
const forms: Row[] = [
  ['[PATCH v2 3/7] mm: fix it', { title: 'mm: fix it', isPatch: true, version: 2, versionExplicit: true, index: 3, total: 7, tags: [] }],
  ['[PATCH net-next v8 00/17] net: big series', { title: 'net: big series', version: 8, index: 0, total: 17, tags: ['net-next'], prefixes: ['patch', 'net-next', 'v8', '00/17'] }],
  ['[RFC PATCH] idea', { title: 'idea', isPatch: true, isRfc: true, version: 1, versionExplicit: false, index: null, total: null }],
  ['[PATCH RFC v2] idea', { title: 'idea', isRfc: true, version: 2, versionExplicit: true }],
  ['[PATCH RESEND] again', { title: 'again', isResend: true, isPatch: true }],
  ['PATCHv3 bare version', { title: 'bare version', isPatch: true, version: 3, versionExplicit: true }],
  ['[PATCH V2 1/4] upper V', { title: 'upper V', version: 2, index: 1, total: 4 }],
  ['PATCH1/8 glued', { title: 'glued', isPatch: true, index: 1, total: 8 }],
  ['[Patch 2/2]: colon after', { title: 'colon after', isPatch: true, index: 2, total: 2 }],
  ['[PATCH liburing 1/1] test: x', { title: 'test: x', tags: ['liburing'], index: 1, total: 1 }],
  ['[GIT PULL] Block fixes for 6.9-rc1', { title: 'Block fixes for 6.9-rc1', isPull: true, isPatch: false, tags: [] }],
  ['[PULL] qemu fixes', { title: 'qemu fixes', isPull: true, isPatch: false }],
  ['[PATCH 1 of 3] hg style', { title: 'hg style', isPatch: true, index: 1, total: 3, tags: [] }],
  ['[PATCH 0 of 2] hg cover', { index: 0, total: 2 }],
  ['[PATCHSET v4 0/8] cover only version', { title: 'cover only version', isPatch: true, version: 4, index: 0, total: 8 }],
  ['[PATCHSET v3] unnumbered', { isPatch: true, version: 3, index: null }],
  ['[PATCH] [other] [PATCH] message', { title: 'message', isPatch: true, tags: ['other'] }],
  ['Re: [PATCH 1/2] reply', { title: 'reply', isReply: true, isPatch: true, index: 1, total: 2 }],
  ['RE: [PATCH 17/17] nvme: x', { isReply: true, index: 17, total: 17 }],
  ['Re[2]: [PATCH] counted', { title: 'counted', isReply: true }],
  ['AW: [PATCH v2] german', { isReply: true, version: 2 }],
  ['SV: [PATCH] nordic', { isReply: true, title: 'nordic' }],
  ['Fwd: [PATCH] forwarded', { isReply: false, isPatch: true, title: 'forwarded' }],
  ['[External] Re: [PATCH] block: enable', { isReply: true, title: 'block: enable', tags: [] }],
  ['Re: [External] Re: [PATCH] block: enable per-cpu', { isReply: true, title: 'block: enable per-cpu' }],
  ['re: [PATCH] another patch', { isReply: true, title: 'another patch' }],
  ['[PATCH\n v2\t2/3]   folded\n  title', { title: 'folded title', version: 2, index: 2, total: 3 }],
  ['io_uring: no prefix at all', { title: 'io_uring: no prefix at all', isPatch: false, prefixes: [] }],
  ['', { title: '', isPatch: false }],
  ['[RFC] just rfc', { isRfc: true, isPatch: true }],
  ['[PATCH v3 RESEND 1/2] both', { isResend: true, version: 3, index: 1, total: 2 }],
  ['[f2fs-dev] [PATCH 1/3] list tag', { tags: ['f2fs-dev'], index: 1, total: 3 }],
  ['[net,v2,2/2] net: ieee802154: fix', { title: 'net: ieee802154: fix', isPatch: true, tags: ['net'], version: 2, index: 2, total: 2 }],
  ['[PATCH][next] io_uring: fix', { title: 'io_uring: fix', isPatch: true, tags: ['next'] }],
  ['[BUG] io_uring', { title: 'io_uring', isPatch: false, tags: ['bug'] }],
  ['[PATCH AUTOSEL 5.9 09/35] io_uring: x', { tags: ['autosel', '5.9'], index: 9, total: 35 }],
];

// Real subjects from the io_uring/block/fsdevel threads in the project fixtures corpus.
const real: Row[] = [
  ['Re: [PATCH v9 15/17] fuse: {io-uring} Prevent mount point hang on', { title: 'fuse: {io-uring} Prevent mount point hang on', isReply: true, version: 9, index: 15, total: 17 }],
  ['Re: [RFC PATCH v4 2/4] liburing: add documentation for new napi', { isRfc: true, version: 4, index: 2, total: 4, isReply: true }],
  ['[PATCHv5 0/4] liburing: support for mix sized sqe\'s', { isPatch: true, version: 5, index: 0, total: 4, title: "liburing: support for mix sized sqe's" }],
  ['Re: [PATCH V6 5/8] io_uring: support sqe group with members', { version: 6, index: 5, total: 8 }],
  ['Re: [PATCH liburing v3 05/10] arch/aarch64: lib: Add', { tags: ['liburing'], version: 3, index: 5, total: 10 }],
  ['Re: [PATCH V3] io_uring: fix IO hang in io_wq_put_and_exit from do_exit()', { version: 3, index: null }],
  ['[PATCH] io_uring/poll: use regular CQE posting for multishot', { isReply: false, version: 1, versionExplicit: false }],
  ['[PATCH 00/17] io_uring passthru over nvme', { index: 0, total: 17 }],
  ['Re: [PATCH liburing v2 0/2] add tx timestamp tests', { tags: ['liburing'], version: 2, index: 0, total: 2 }],
  ['Re: [External] Re: [PATCH] block: enable per-cpu bio cache by default', { isReply: true, title: 'block: enable per-cpu bio cache by default' }],
];

for (const [subject, want] of [...forms, ...real]) {
  test(`parseSubject ${JSON.stringify(subject)}`, () => {
    const got = parseSubject(subject);
    const picked = Object.fromEntries(Object.keys(want).map((k) => [k, got[k as keyof SubjectInfo]]));
    assert.deepEqual(picked, want);
  });
}
