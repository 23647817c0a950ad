/**
 * The entries of an mboxrd as public-inbox writes it (every body line matching
 * `^>*From ` carries an extra `>`, so every line starting `From ` separates two
 * messages), kept byte for byte so that merged files stay what the server sent.
 */

export interface MboxEntry {
  /** The entry, `From ` line included, ending in a newline. */
  bytes: Buffer;
  /** Its first Message-ID without angle brackets, or null when it has none. */
  messageId: string | null;
}

/** The first Message-ID in a mail's header block, without angle brackets. */
export function entryMessageId(bytes: Buffer): string | null {
  const text = bytes.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const head = (end < 0 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const m = /^message-id:[ \t]*(.*)$/im.exec(head);
  if (!m) return null;
  const v = m[1].trim();
  const bracketed = /<([^<>\s]+)>/.exec(v);
  if (bracketed) return bracketed[1];
  return v.split(/\s+/)[0] || null;
}

/** Splits an mboxrd into its entries. Text before the first `From ` line is dropped. */
export function splitEntries(mbox: Buffer): MboxEntry[] {
  const starts: number[] = [];
  if (mbox.subarray(0, 5).toString('latin1') === 'From ') starts.push(0);
  const sep = Buffer.from('\nFrom ');
  for (let i = mbox.indexOf(sep); i >= 0; i = mbox.indexOf(sep, i + 1)) starts.push(i + 1);
  return starts.map((s, k) => {
    let bytes = mbox.subarray(s, k + 1 < starts.length ? starts[k + 1] : mbox.length);
    if (bytes[bytes.length - 1] !== 0x0a) bytes = Buffer.concat([bytes, Buffer.from('\n')]);
    return { bytes, messageId: entryMessageId(bytes) };
  });
}

export interface Merged {
  mbox: Buffer;
  /** Message-IDs (or null for id-less mails) of the entries that were new. */
  added: (string | null)[];
  total: number;
}

/**
 * The entries of `old` in their order, then those of `fresh` whose Message-ID is not yet
 * there (id-less entries are compared by content). Entries stay as they were, so
 * what was read before keeps its identity.
 */
export function mergeMboxes(old: Buffer, fresh: Buffer): Merged {
  const before = splitEntries(old);
  const seen = new Set(before.map((e) => e.messageId ?? `bytes:${e.bytes.toString('latin1')}`));
  const parts = before.map((e) => e.bytes);
  const added: (string | null)[] = [];
  for (const e of splitEntries(fresh)) {
    const key = e.messageId ?? `bytes:${e.bytes.toString('latin1')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(e.bytes);
    added.push(e.messageId);
  }
  return { mbox: Buffer.concat(parts), added, total: parts.length };
}

/**
 * The entries of a fetched mbox whose Message-ID is not among `known` (ids with or without
 * angle brackets): the new replies to merge into a thread imported from elsewhere.
 */
export function entriesNotIn(mbox: Buffer, known: Iterable<string>): MboxEntry[] {
  const have = new Set([...known].map((id) => id.trim().replace(/^<(.*)>$/, '$1')));
  return splitEntries(mbox).filter((e) => e.messageId === null || !have.has(e.messageId));
}
