/**
 * A thin typed wrapper over simple-git for one repository.
 *
 * Every invocation is logged with its arguments through an injectable logger;
 * every failure becomes a GitError with a kind callers can act on. Commands
 * run with literal pathspecs, the C locale (so stderr can be parsed) and no
 * optional locks, so reading never rewrites the user's index.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { simpleGit, SimpleGit } from 'simple-git';

export type GitLogger = (line: string) => void;

export type GitErrorKind =
  /** git is not installed or not on PATH. */
  | 'git-missing'
  /** The directory is not a git repository. */
  | 'not-a-repo'
  /** Another process holds a lock git needs. */
  | 'locked'
  /** Anything else: see stderr. */
  | 'failed';

export class GitError extends Error {
  override name = 'GitError';
  constructor(
    readonly kind: GitErrorKind,
    message: string,
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  /** Use this index file instead of the repository's (GIT_INDEX_FILE). */
  indexFile?: string;
  /** Bytes or text fed to git's standard input. */
  input?: string | Buffer;
}

export interface RepoOptions {
  logger?: GitLogger;
  /** Environment for git; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

function quoteArg(a: string): string {
  return /^[\w@%+=:,./^~-]+$/.test(a) ? a : JSON.stringify(a);
}

/** Turns what a failed git run said into a GitError. */
export function toGitError(args: readonly string[], raw: unknown): GitError {
  const text = raw instanceof Error ? raw.message : String(raw);
  const stderr = text.trim();
  const cmd = `git ${args[0] ?? ''}`.trim();
  if (/\bENOENT\b/.test(stderr) && /spawn/.test(stderr)) {
    return new GitError('git-missing', 'git was not found on PATH; install git or add it to PATH.', args, stderr);
  }
  if (/not a git repository/i.test(stderr)) {
    return new GitError('not-a-repo', 'the folder is not inside a git repository.', args, stderr);
  }
  const lock = /Unable to create '([^']+\.lock)': File exists/.exec(stderr);
  if (lock) {
    return new GitError(
      'locked',
      `${lock[1]} exists: another git process is running in this repository (or crashed; remove the file if no git is running).`,
      args,
      stderr,
    );
  }
  const first = stderr.split('\n').find((l) => l.trim()) ?? 'no message';
  return new GitError('failed', `${cmd} failed: ${first.replace(/^(fatal|error): /, '')}`, args, stderr);
}

export class Repo {
  private readonly clients = new Map<string, SimpleGit>();

  private constructor(
    /** The top of the work tree (or the git dir of a bare repository). */
    readonly root: string,
    /** Absolute path of the git dir (per-worktree). */
    readonly gitDir: string,
    /** 'sha1' or 'sha256'. */
    readonly objectFormat: 'sha1' | 'sha256',
    private readonly log: GitLogger,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Opens the repository that contains `dir`. */
  static async open(dir: string, opts: RepoOptions = {}): Promise<Repo> {
    const log = opts.logger ?? (() => undefined);
    const env = opts.env ?? process.env;
    const abs = path.resolve(dir);
    if (!existsSync(abs)) throw new GitError('not-a-repo', `${abs} does not exist.`, [], '');
    const probe = new Repo(abs, '', 'sha1', log, env);
    const out = await probe.run(['rev-parse', '--absolute-git-dir', '--is-bare-repository', '--show-object-format', '--is-inside-work-tree', '--show-cdup']);
    const [gitDir, bare, format, inside, cdup] = out.split('\n');
    let root = gitDir;
    if (bare !== 'true') {
      root = inside === 'true' ? path.resolve(abs, cdup ?? '') : (await probe.run(['rev-parse', '--show-toplevel'])).trim();
    }
    return new Repo(root, gitDir, format === 'sha256' ? 'sha256' : 'sha1', log, env);
  }

  get zeroOid(): string {
    return '0'.repeat(this.objectFormat === 'sha256' ? 64 : 40);
  }

  private client(indexFile?: string): SimpleGit {
    const key = indexFile ?? '';
    let c = this.clients.get(key);
    if (!c) {
      // Config paths in the environment are the user's own (never mail text): git must read the config they name.
      const options = { baseDir: this.root, trimmed: false, maxConcurrentProcesses: 4, unsafe: { allowUnsafeConfigPaths: true } };
      c = simpleGit(options as Parameters<typeof simpleGit>[0]);
      c.env(this.childEnv(indexFile));
      this.clients.set(key, c);
    }
    return c;
  }

  private childEnv(indexFile?: string): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...this.env,
      LC_ALL: 'C',
      LANGUAGE: 'C',
      GIT_LITERAL_PATHSPECS: '1',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_TERMINAL_PROMPT: '0',
    };
    delete env.GIT_INDEX_FILE;
    // simple-git refuses to run git when these are set (npm sets EDITOR for every script, and many
    // users have EDITOR/PAGER in their shell); none of them matters to the plumbing we run. The user's
    // config paths (GIT_CONFIG_GLOBAL, …) do matter and are kept: see allowUnsafeConfigPaths below.
    for (const k of Object.keys(env)) {
      if (/^(editor|visual|pager|ssh_askpass|git_(editor|sequence_editor|pager|askpass|ssh|ssh_command|proxy_command|external_diff|template_dir))$/i.test(k)) delete env[k];
    }
    if (indexFile) env.GIT_INDEX_FILE = indexFile;
    return env;
  }

  /** Runs git with an argument vector (never a shell); resolves to stdout. */
  async run(args: string[], opts: RunOptions = {}): Promise<string> {
    this.log(`${opts.indexFile ? `GIT_INDEX_FILE=${quoteArg(opts.indexFile)} ` : ''}git ${args.map(quoteArg).join(' ')}`);
    if (opts.input !== undefined) return this.runWithInput(args, opts);
    try {
      return await this.client(opts.indexFile).raw(args);
    } catch (e) {
      throw toGitError(args, e);
    }
  }

  /** Like run(), but resolves to null instead of throwing when git exits non-zero. */
  async tryRun(args: string[], opts: RunOptions = {}): Promise<string | null> {
    try {
      return await this.run(args, opts);
    } catch (e) {
      if (e instanceof GitError && e.kind === 'failed') return null;
      throw e;
    }
  }

  /** Runs git with standard input and resolves to stdout as bytes. */
  async runBuffer(args: string[], input: string | Buffer): Promise<Buffer> {
    this.log(`git ${args.map(quoteArg).join(' ')}`);
    return this.spawnWithInput(args, { input });
  }

  private async runWithInput(args: string[], opts: RunOptions): Promise<string> {
    return (await this.spawnWithInput(args, opts)).toString('utf8');
  }

  /** simple-git has no way to feed standard input, so these few calls spawn git directly. */
  private spawnWithInput(args: string[], opts: RunOptions): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn('git', args, { cwd: this.root, env: this.childEnv(opts.indexFile), stdio: 'pipe' });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.on('error', (e) => reject(toGitError(args, e)));
      child.stdin.on('error', () => undefined);
      child.on('close', (code) => {
        if (code === 0) resolve(Buffer.concat(out));
        else reject(toGitError(args, Buffer.concat(err).toString('utf8') || `exit status ${code}`));
      });
      child.stdin.end(opts.input);
    });
  }

  /** Resolves a revision to a commit id, or null when it does not name a commit here. */
  async resolveCommit(rev: string): Promise<string | null> {
    const out = await this.tryRun(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
    return out ? out.trim() : null;
  }
}
