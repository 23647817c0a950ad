/** Starts scripts/smtp-sink.py (aiosmtpd) on loopback for a test. */
import { spawn, spawnSync, ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../fixtures';

export interface Sink {
  port: number;
  dir: string;
  /** Messages received so far: raw bytes and envelope. */
  received(): { bytes: Buffer; envelope: { mail_from: string; rcpt_tos: string[]; mail_options: string[] } }[];
  stop(): Promise<void>;
}

/** A python3 that has aiosmtpd (Debian's python3-aiosmtpd lives in /usr/bin/python3's path). */
function python(): string {
  for (const p of ['/usr/bin/python3', 'python3']) {
    if (spawnSync(p, ['-c', 'import aiosmtpd'], { stdio: 'ignore' }).status === 0) return p;
  }
  throw new Error('python3 with aiosmtpd is needed for the SMTP tests (apt-get install python3-aiosmtpd)');
}

export async function startSink(args: string[] = []): Promise<Sink> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'smtp-sink-'));
  const child: ChildProcess = spawn(python(), [path.join(repoRoot(), 'scripts/smtp-sink.py'), '--out', dir, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`smtp-sink exited (${code}): ${err}`)));
  });
  return {
    port,
    dir,
    received() {
      const n = readdirSync(dir).filter((f) => f.endsWith('.eml')).length;
      return Array.from({ length: n }, (_, i) => ({
        bytes: readFileSync(path.join(dir, `${i + 1}.eml`)),
        envelope: JSON.parse(readFileSync(path.join(dir, `${i + 1}.json`), 'utf8')),
      }));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
        setTimeout(() => child.kill(), 3000).unref();
      }),
  };
}

export const haveOpenssl = (): boolean => existsSync('/usr/bin/openssl') || spawnSync('openssl', ['version']).status === 0;
