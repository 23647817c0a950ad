/**
 * A comment under a quoted removed line is anchored to the old side, in the old
 * file's coordinates, and not moved to the added line that replaced it. The patch
 * is the real liburing mail; the reply is written the way mutt quotes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fixture } from '../fixtures';
import { loadThreads } from '../../../src/core/load';
import { extractComments } from '../../../src/core/review';

const PATCH_ID = '<20200206160209.14432-1-metze@samba.org>';

const reply = `From mboxrd@z Thu Jan  1 00:00:00 1970
From: Jens Axboe <axboe@kernel.dk>
To: Stefan Metzmacher <metze@samba.org>
Subject: Re: [PATCH v1] io_uring_cqe_get_data() only requires a const struct io_uring_cqe *cqe
Date: Thu, 6 Feb 2020 10:00:00 -0700
Message-ID: <old-side-test@kernel.dk>
In-Reply-To: ${PATCH_ID}
References: ${PATCH_ID}

On 2/6/20 9:02 AM, Stefan Metzmacher wrote:
> diff --git a/src/include/liburing.h b/src/include/liburing.h
> index faed2e7..44f18fd 100644
> --- a/src/include/liburing.h
> +++ b/src/include/liburing.h
> @@ -179,7 +179,7 @@ static inline void io_uring_sqe_set_data(struct io_uring_sqe *sqe, void *data)
>  	sqe->user_data = (unsigned long) data;
>  }
>  
> -static inline void *io_uring_cqe_get_data(struct io_uring_cqe *cqe)

This one was never meant to modify the cqe.

> +static inline void *io_uring_cqe_get_data(const struct io_uring_cqe *cqe)

And the const version is fine for every caller.

--
Jens Axboe
`;

test('a comment under a removed line is on the old side, at the old line number', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kr-old-'));
  try {
    const mbox = path.join(dir, 't.mbox');
    const thread = fs.readFileSync(fixture('threads', 'liburing-cqe_get_data-const-v1.mbox'), 'utf8');
    fs.writeFileSync(mbox, `${thread.replace(/\n*$/, '\n\n')}${reply}`);
    const [t] = await loadThreads([mbox]);
    const mine = extractComments(t).filter((c) => c.messageId === '<old-side-test@kernel.dk>');
    assert.deepEqual(
      mine.map((c) => [c.kind, c.patchMessageId, c.file, c.side, c.line, c.body.split('\n')[0]]),
      [
        ['line', PATCH_ID, 'src/include/liburing.h', 'old', 182, 'This one was never meant to modify the cqe.'],
        ['line', PATCH_ID, 'src/include/liburing.h', 'new', 182, 'And the const version is fine for every caller.'],
      ],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
