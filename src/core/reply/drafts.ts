/**
 * Reply drafts on disk: one `<id>.eml` per draft (the editable text) in a
 * storage folder, written atomically (temporary file + rename), so a draft
 * survives a restart or a crash of the window and is never half written.
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { writeFileAtomic } from './atomic';
import { header, parseDraft } from './draft';
import { ReplyError } from './errors';

export interface DraftInfo {
  id: string;
  file: string;
  subject: string;
  to: string;
  messageId: string | null;
  inReplyTo: string | null;
  modified: Date;
  /** Set when the file could not be read as a draft; it is listed anyway so it is not lost. */
  problem?: string;
}

/** A file-name-safe id from a Message-ID: `<a/b@c>` → `a_b@c`. */
export function draftId(messageId: string): string {
  const id = messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@+-]/g, '_').replace(/^\.+/, '_');
  return id.slice(0, 200) || 'draft';
}

export class DraftStore {
  constructor(readonly folder: string) {}

  private fileOf(id: string): string {
    if (!/^[A-Za-z0-9_@+-][A-Za-z0-9._@+-]*$/.test(id)) throw new ReplyError('bad-draft', `"${id}" is not a draft id.`);
    return path.join(this.folder, `${id}.eml`);
  }

  /** Saves (creates or replaces) a draft; its id comes from its Message-ID. */
  async save(text: string, id?: string): Promise<DraftInfo> {
    const d = parseDraft(text);
    const draft = id ?? draftId(header(d, 'message-id') ?? `draft-${Date.now()}`);
    await mkdir(this.folder, { recursive: true });
    const file = this.fileOf(draft);
    await writeFileAtomic(file, text);
    return this.info(draft, file, text, new Date());
  }

  async load(id: string): Promise<string> {
    try {
      return await readFile(this.fileOf(id), 'utf8');
    } catch {
      throw new ReplyError('bad-draft', `The draft ${id} no longer exists.`);
    }
  }

  async remove(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
  }

  /** Every draft, newest first. Leftover temporary files are not drafts. */
  async list(): Promise<DraftInfo[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return [];
    }
    const out: DraftInfo[] = [];
    for (const name of names) {
      if (!name.endsWith('.eml') || name.startsWith('.')) continue;
      const id = name.slice(0, -4);
      const file = path.join(this.folder, name);
      try {
        const [text, st] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
        out.push(this.info(id, file, text, st.mtime));
      } catch (e) {
        out.push({ id, file, subject: '', to: '', messageId: null, inReplyTo: null, modified: new Date(0), problem: (e as Error).message });
      }
    }
    return out.sort((a, b) => b.modified.getTime() - a.modified.getTime() || a.id.localeCompare(b.id));
  }

  /** The draft answering `messageId`, if there is one. */
  async findReplyTo(messageId: string): Promise<DraftInfo | undefined> {
    return (await this.list()).find((d) => d.inReplyTo === messageId && !d.problem);
  }

  private info(id: string, file: string, text: string, modified: Date): DraftInfo {
    try {
      const d = parseDraft(text);
      return {
        id,
        file,
        subject: header(d, 'subject') ?? '',
        to: header(d, 'to') ?? '',
        messageId: header(d, 'message-id'),
        inReplyTo: header(d, 'in-reply-to'),
        modified,
      };
    } catch (e) {
      return { id, file, subject: '', to: '', messageId: null, inReplyTo: null, modified, problem: (e as Error).message };
    }
  }
}
