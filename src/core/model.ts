/**
 * The data model shared by every stage of the pipeline.
 *
 *   bytes -> RawMail -> MailMessage -> Thread -> Series/Patch -> Comment
 *
 * Everything here is plain data (JSON-serialisable apart from Date), so the
 * VS Code layer can persist it and the CLI can print it.
 */

/** A mailbox address as it appears in From/To/Cc. */
export interface Address {
  /** Display name, decoded; empty when the header gave a bare address. */
  name: string;
  /** The addr-spec, e.g. `axboe@kernel.dk`; may be empty for garbage headers. */
  address: string;
}

/** One mail, split out of its container but not yet decoded. */
export interface RawMail {
  /** The raw RFC 822 bytes, line ends normalised to LF, mbox escaping undone. */
  bytes: Buffer;
  /** Where it came from: file path (or `-` for stdin), for error messages. */
  source: string;
  /** 0-based index of the message inside its source. */
  index: number;
}

/** A decoded mail: headers that matter to review, and the text body. */
export interface MailMessage {
  /** The Message-ID with its angle brackets, exactly as in the header; synthesised (`<kpr-…@local>`) if missing. */
  messageId: string;
  /** True when the Message-ID was synthesised. */
  syntheticId: boolean;
  inReplyTo: string | null;
  /** References header, oldest first, each with angle brackets. */
  references: string[];
  /** Decoded subject (RFC 2047 words resolved), whitespace folded. */
  subject: string;
  from: Address;
  to: Address[];
  cc: Address[];
  /** Parsed Date header, or null when absent or unparseable. */
  date: Date | null;
  /** The Date header's zone as git writes it (`+0200`), when it gave one. */
  dateZone?: string;
  /**
   * The text the sender wrote: text/plain preferred, HTML reduced to text when
   * that is all there is. LF line ends. Patch attachments are not included.
   */
  body: string;
  /** Bodies of text/x-patch / text/x-diff (or *.patch/*.diff named) attachments, in order. */
  patchAttachments: string[];
  /** Where the raw message came from. */
  source: string;
  index: number;
}

/** Prefix information parsed from a subject line such as `[PATCH net-next v8 03/17]`. */
export interface SubjectInfo {
  /** Subject without `Re:`/`Fwd:`/`[External]` and without bracketed prefixes. */
  title: string;
  /** Has one or more reply markers (Re:, AW:, SV:, …). */
  isReply: boolean;
  /** Raw prefix words, lower-cased, e.g. ['patch', 'net-next', 'v8', '03/17']. */
  prefixes: string[];
  /** True when the prefixes mark this as a patch (PATCH, RFC, PATCHSET, PATCHv3, …). */
  isPatch: boolean;
  isRfc: boolean;
  isResend: boolean;
  /** `[GIT PULL]` / `[PULL]`. */
  isPull: boolean;
  /** Version number: 1 when not given. */
  version: number;
  /** True when the version was written in the subject (v2, V3, PATCHv4). */
  versionExplicit: boolean;
  /** Index within the series (0 = cover letter), null when un-numbered. */
  index: number | null;
  /** Series length, null when un-numbered. */
  total: number | null;
  /** Non-keyword prefix words such as 'net-next' or 'liburing'. */
  tags: string[];
}

/** A trailer line such as `Reviewed-by: Name <addr>`. */
export interface Trailer {
  /** Canonical capitalisation, e.g. `Reviewed-by`. */
  name: string;
  value: string;
  /** The Message-ID of the mail that carried it (the patch itself or a reply). */
  messageId: string;
}

/** One file of a diff, as parse-diff gives it, plus what review needs. */
export interface DiffFile {
  /** Path before the change (null for a new file). */
  oldPath: string | null;
  /** Path after the change (null for a deleted file). */
  newPath: string | null;
  /** The path to show: newPath, else oldPath. */
  path: string;
  isNew: boolean;
  isDeleted: boolean;
  isRename: boolean;
  isBinary: boolean;
  oldMode: string | null;
  newMode: string | null;
  /** Abbreviated blob ids from the `index a..b` line, when present. */
  oldBlob: string | null;
  newBlob: string | null;
  hunks: Hunk[];
}

export interface Hunk {
  /** The `@@ -a,b +c,d @@ context` line. */
  header: string;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: HunkLine[];
}

export interface HunkLine {
  type: 'context' | 'add' | 'del';
  /** Text without the leading ' ', '+' or '-'. */
  text: string;
  /** Line number in the old file (null for added lines). */
  oldLine: number | null;
  /** Line number in the new file (null for removed lines). */
  newLine: number | null;
  /** The following `\ No newline at end of file` applies to this line. */
  noNewlineAtEnd?: boolean;
}

/** A patch extracted from one mail. */
export interface Patch {
  messageId: string;
  subject: SubjectInfo;
  /** Author: in-body `From:` when present, else the mail's From. */
  author: Address;
  /** Author date: in-body `Date:` when present, else the mail's Date. */
  date: Date | null;
  /** The author date's zone (`-0700`), when the mail gave one: commits keep the sender's zone. */
  dateZone?: string;
  /** Commit subject (title) followed by the body, as `git mailinfo` would give it. */
  commitTitle: string;
  commitBody: string;
  /** Text between `---` and the diff (notes, changelog of versions), without the diffstat. */
  notes: string;
  /** The diffstat lines, if any. */
  diffstat: string;
  /** The patch text from the first `diff --git` / `Index:` / `---` line on, as `git am` needs it. */
  diffText: string;
  files: DiffFile[];
  /** Trailers in the patch itself (Signed-off-by, Fixes, Link, Reviewed-by…). */
  trailers: Trailer[];
  baseCommit: string | null;
  changeId: string | null;
  /** Pre-requisite lines (`prerequisite-patch-id:` etc.), kept for base guessing. */
  prerequisites: string[];
}

/** A `[GIT PULL]` request. */
export interface PullRequest {
  messageId: string;
  url: string;
  ref: string | null;
}

/** A series of patches: one version of a patch set. */
export interface Series {
  version: number;
  /** Expected number of patches (N in n/N), 1 for an un-numbered patch. */
  total: number;
  cover: MailMessage | null;
  coverMessageId: string | null;
  /** Patches in index order; `patches[i].subject.index` may be null for single patches. */
  patches: Patch[];
  /** Every 1..total index is present. */
  complete: boolean;
  changeId: string | null;
  baseCommit: string | null;
  /** The series title: the cover's title, else the first patch's. */
  title: string;
  /** Trailers given on the cover letter or in replies to it: they apply to every patch. */
  coverTrailers: Trailer[];
  /** Trailers given in replies to each patch, keyed by the patch's Message-ID. */
  replyTrailers: Record<string, Trailer[]>;
}

/** A conversation: one root and everything that answers it. */
export interface Thread {
  /** The root's Message-ID; a placeholder's id when the root was never archived. */
  rootMessageId: string;
  /** Subject of the root (or of the earliest message when the root is missing). */
  subject: string;
  /** Every message present, in thread order (depth-first, by date within a level). */
  messages: MailMessage[];
  /** Message-IDs referenced but not present. */
  placeholders: string[];
  /** parent Message-ID for each message (null at the root). */
  parentOf: Record<string, string | null>;
  series: Series[];
  pulls: PullRequest[];
}

/** A problem with an input the user gave us: shown as one sentence, exit status 2. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'InputError';
  }
}

/** Where a review comment points. */
export type CommentKind = 'line' | 'commit-message' | 'general';

/** A comment a reviewer wrote in a reply, anchored to what it addresses. */
export interface ReviewComment {
  /** Stable id: `<reply Message-ID>#<n>` (n = 0-based block index within the reply). */
  id: string;
  /** The reply that carries it (or, for a comment recovered from a quote, the reply that quoted it). */
  messageId: string;
  author: Address;
  date: Date | null;
  /** The id of the comment this one answers (same thread), or null. */
  inReplyTo: string | null;
  /** The patch the comment is about, null when it is about a cover letter or nothing found. */
  patchMessageId: string | null;
  kind: CommentKind;
  file: string | null;
  side: 'new' | 'old' | null;
  line: number | null;
  /** The comment text without quote markers. */
  body: string;
}
