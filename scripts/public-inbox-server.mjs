#!/usr/bin/env node
// A throw-away public-inbox server for tests and demos: creates inboxes in a
// temporary folder (HOME and PI_CONFIG isolated there), delivers mail into them
// with public-inbox-mda, and serves them with public-inbox-httpd on 127.0.0.1.
//
//   node scripts/public-inbox-server.mjs <inbox-name> <file.mbox>...
// prints the inbox URL and serves until Ctrl-C.
//
// As a module: `startPublicInbox({ inboxes: [{ name, mboxes }] })` resolves to
// { root, url(name), deliver(name, rawMail), stop() }; `publicInboxInstalled()`
// tells whether the Debian package's programs are on PATH.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';

const PROGRAMS = ['public-inbox-init', 'public-inbox-mda', 'public-inbox-httpd'];

function onPath(program) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** True when public-inbox-init, -mda and -httpd can be run. */
export function publicInboxInstalled() {
  return PROGRAMS.every(onPath);
}

/**
 * Splits an mbox (mboxo or mboxrd) into raw messages without their `From ` lines,
 * undoing mboxrd `>From ` quoting.
 */
export function splitMbox(buf) {
  const text = buf.toString('latin1');
  const out = [];
  const starts = [];
  const re = /^From [^\n]*\n/gm;
  let m;
  while ((m = re.exec(text))) {
    if (m.index === 0 || text.slice(Math.max(0, m.index - 2), m.index).endsWith('\n')) {
      starts.push([m.index, m.index + m[0].length]);
    }
  }
  for (let i = 0; i < starts.length; i++) {
    let body = text.slice(starts[i][1], i + 1 < starts.length ? starts[i + 1][0] : text.length);
    // The blank line before the next `From ` line belongs to the mbox, not to the mail.
    if (body.endsWith('\n\n')) body = body.slice(0, -1);
    body = body.replace(/^>(>*From )/gm, '$1');
    out.push(Buffer.from(body, 'latin1'));
  }
  return out;
}

function run(cmd, args, env, input) {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${stderr || err.message}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** The first Message-ID of a raw mail, without angle brackets (as public-inbox-v1-format(5) hashes it). */
function firstMessageId(raw) {
  const text = raw.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const head = (end < 0 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const m = /^message-id:[ \t]*(.*)$/im.exec(head);
  if (!m) throw new Error('a mail without Message-ID cannot go into a public-inbox');
  return m[1].trim().replace(/^<(.*)>$/, '$1');
}

/**
 * Writes mails into a v1 inbox the way public-inbox-v1-format(5) describes (one commit per
 * message, the blob at the SHA-1 of its Message-ID), in one `git fast-import` run.
 */
async function importV1(gitDir, mails, env) {
  const chunks = [];
  let t = 1600000000;
  mails.forEach((raw, i) => {
    const sha = createHash('sha1').update(firstMessageId(raw), 'latin1').digest('hex');
    const msg = Buffer.from(`import message ${i + 1}\n`);
    chunks.push(
      Buffer.from(`commit refs/heads/master\nmark :${i + 1}\ncommitter test <test@inbox.test> ${t++} +0000\n`),
      Buffer.from(`data ${msg.length}\n`),
      msg,
      Buffer.from(i > 0 ? `from :${i}\n` : ''),
      Buffer.from(`M 100644 inline ${sha.slice(0, 2)}/${sha.slice(2)}\ndata ${raw.length}\n`),
      raw,
      Buffer.from('\n'),
    );
  });
  await run('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], env, Buffer.concat(chunks));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function httpStatus(url) {
  return new Promise((resolve) => {
    const req = get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(1000, () => req.destroy());
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {{ inboxes: { name: string, mboxes?: string[], version?: 1 | 2 }[], root?: string }} opts
 */
export async function startPublicInbox(opts) {
  // v1 (bulk import, fast) unless a test asks for v2, the format lore uses.
  if (!publicInboxInstalled()) throw new Error('public-inbox is not installed (apt-get install public-inbox)');
  const root = opts.root ?? mkdtempSync(join(tmpdir(), 'kr-public-inbox-'));
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    PI_CONFIG: join(root, 'config'),
    PI_DIR: join(root, 'pi'),
    PI_EMERGENCY: join(root, 'emergency'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
  };
  const address = (name) => `${name}@inbox.test`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  for (const ibx of opts.inboxes) {
    if (!/^[a-z0-9][a-z0-9._-]*$/.test(ibx.name)) throw new Error(`bad inbox name ${ibx.name}`);
    const v = ibx.version === 2 ? '-V2' : '-V1';
    await run(
      'public-inbox-init',
      [v, '-L', 'medium', ibx.name, join(root, 'inboxes', ibx.name), `${base}${ibx.name}`, address(ibx.name)],
      env,
    );
  }
  await run('git', ['config', '-f', env.PI_CONFIG, 'publicinboxmda.spamcheck', 'none'], env);

  const deliver = async (name, raw) => {
    await run('public-inbox-mda', ['--no-precheck'], { ...env, ORIGINAL_RECIPIENT: address(name) }, raw);
  };
  // v1 inboxes are filled in bulk and indexed once; v2 ones get each mail through -mda.
  await Promise.all(
    opts.inboxes.map(async (ibx) => {
      const mails = (ibx.mboxes ?? []).flatMap((file) => splitMbox(readFileSync(file)));
      if (ibx.version !== 2) {
        const dir = join(root, 'inboxes', ibx.name);
        if (mails.length) await importV1(dir, mails, env);
        await run('public-inbox-index', [dir], env);
      } else {
        for (const raw of mails) await deliver(ibx.name, raw);
      }
    }),
  );

  const child = spawn(
    'public-inbox-httpd',
    ['-W', '0', '-l', `127.0.0.1:${port}`, '-1', join(root, 'httpd.out'), '-2', join(root, 'httpd.err')],
    { env, stdio: 'ignore' },
  );
  let exited = false;
  const exit = new Promise((resolve) => child.on('exit', () => resolve((exited = true))));
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`public-inbox-httpd exited at start (see ${join(root, 'httpd.err')})`);
    if ((await httpStatus(`${base}${opts.inboxes[0].name}/`)) === 200) break;
    if (i > 150) {
      child.kill('SIGKILL');
      throw new Error('public-inbox-httpd did not answer within 30 s');
    }
    await sleep(200);
  }

  return {
    root,
    base,
    url: (name) => `${base}${name}/`,
    deliver,
    async stop({ keep = false } = {}) {
      if (!exited) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exit;
        clearTimeout(t);
      }
      if (!keep && !opts.root) rmSync(root, { recursive: true, force: true });
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [name, ...mboxes] = process.argv.slice(2);
  if (!name || mboxes.length === 0) {
    process.stderr.write('usage: node scripts/public-inbox-server.mjs <inbox-name> <file.mbox>...\n');
    process.exit(2);
  }
  const server = await startPublicInbox({ inboxes: [{ name, mboxes }] });
  process.stdout.write(`${server.url(name)}\n`);
  const stop = () => server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
