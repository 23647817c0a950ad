/**
 * A small SMTP client (RFC 5321) over node's net/tls: EHLO, optional
 * STARTTLS (or TLS from the first byte), AUTH PLAIN or LOGIN, MAIL FROM,
 * RCPT TO, DATA with dot-stuffing, QUIT. One message per connection.
 */
import * as net from 'node:net';
import * as os from 'node:os';
import * as tls from 'node:tls';
import { ReplyError } from './errors';

export interface SmtpSettings {
  host: string;
  port: number;
  /** `tls`: TLS from the start (port 465); `starttls`: upgrade, required; `none`: plain. */
  security: 'tls' | 'starttls' | 'none';
  user?: string;
  password?: string;
  /** Name given in EHLO; default this machine's host name. */
  heloName?: string;
  /** Extra CA certificates (PEM) to trust, e.g. a private relay's. */
  ca?: string | Buffer;
  /** Milliseconds to wait for each server reply; default 30 s. */
  timeoutMs?: number;
}

export interface SmtpReply {
  code: number;
  lines: string[];
}

/** Capabilities from EHLO, upper-cased keywords with their parameters. */
export type Capabilities = Map<string, string>;

export interface SmtpResult {
  /** The server's answer to the end of DATA, e.g. `250 OK queued as 1234`. */
  response: string;
}

const isLoopback = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** Reads CRLF-terminated reply lines from whichever socket is current. */
class Connection {
  private buffer = '';
  private waiting: ((r: SmtpReply | Error) => void) | null = null;
  private replies: (SmtpReply | Error)[] = [];
  private partial: string[] = [];
  private socket: net.Socket;

  constructor(
    socket: net.Socket,
    private readonly where: string,
    private readonly timeoutMs: number,
  ) {
    this.socket = socket;
    this.attach(socket);
  }

  private attach(s: net.Socket): void {
    s.setEncoding('latin1');
    s.on('data', (chunk: string) => this.onData(chunk));
    s.on('error', (e) => this.deliver(e));
    s.on('close', () => this.deliver(new ReplyError('smtp-refused', `The SMTP server ${this.where} closed the connection.`)));
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let i: number;
    while ((i = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, i).replace(/\r$/, '');
      this.buffer = this.buffer.slice(i + 1);
      this.partial.push(line.slice(4));
      if (line[3] !== '-') {
        this.deliver({ code: Number(line.slice(0, 3)) || 0, lines: this.partial });
        this.partial = [];
      }
    }
  }

  private deliver(r: SmtpReply | Error): void {
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w(r);
    } else this.replies.push(r);
  }

  read(): Promise<SmtpReply> {
    const next = this.replies.shift();
    if (next) return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new ReplyError('smtp-connect', `The SMTP server ${this.where} did not answer within ${this.timeoutMs / 1000} seconds.`));
      }, this.timeoutMs);
      this.waiting = (r) => {
        clearTimeout(timer);
        if (r instanceof Error) reject(r);
        else resolve(r);
      };
    });
  }

  async command(line: string): Promise<SmtpReply> {
    this.socket.write(`${line}\r\n`, 'latin1');
    return this.read();
  }

  writeRaw(data: Buffer): void {
    this.socket.write(data);
  }

  async upgrade(opts: tls.ConnectionOptions): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    plain.removeAllListeners('error');
    const secure = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const s = tls.connect({ ...opts, socket: plain }, () => resolve(s));
      s.once('error', reject);
    });
    this.socket = secure;
    this.attach(secure);
  }

  close(): void {
    this.socket.removeAllListeners('close');
    this.socket.end();
    this.socket.destroy();
  }
}

function connect(s: SmtpSettings, timeoutMs: number): Promise<net.Socket> {
  const where = `${s.host}:${s.port}`;
  return new Promise((resolve, reject) => {
    const opts = { host: s.host, port: s.port, servername: net.isIP(s.host) ? undefined : s.host, ca: s.ca };
    const sock = s.security === 'tls' ? tls.connect(opts) : net.connect({ host: s.host, port: s.port });
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new ReplyError('smtp-connect', `Could not connect to the SMTP server ${where} (no answer within ${timeoutMs / 1000} seconds).`));
    }, timeoutMs);
    sock.once(s.security === 'tls' ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      sock.removeAllListeners('error');
      resolve(sock);
    });
    sock.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ReplyError('smtp-connect', `Could not connect to the SMTP server ${where} (${e.code ?? e.message}).`));
    });
  });
}

const text = (r: SmtpReply): string => `${r.code} ${r.lines.join(' ').trim()}`;

function expect(r: SmtpReply, ok: number[], what: string, where: string): void {
  if (ok.includes(r.code)) return;
  const code = r.code === 535 || r.code === 534 || r.code === 530 ? 'smtp-auth' : 'smtp-refused';
  throw new ReplyError(code, `The SMTP server ${where} refused ${what}: ${text(r)}.`);
}

function capabilities(r: SmtpReply): Capabilities {
  const caps: Capabilities = new Map();
  for (const l of r.lines.slice(1)) {
    const [k, ...rest] = l.trim().split(/\s+/);
    if (k) caps.set(k.toUpperCase(), rest.join(' '));
  }
  return caps;
}

/** Doubles a leading dot on every line and ends the data with CRLF.CRLF. */
export function dotStuff(message: Buffer): Buffer {
  let s = message.toString('latin1').replace(/\r?\n/g, '\r\n');
  s = s.replace(/(^|\r\n)\./g, '$1..');
  if (!s.endsWith('\r\n')) s += '\r\n';
  return Buffer.from(`${s}.\r\n`, 'latin1');
}

/**
 * Sends one message. `message` gets the server's capabilities, so a body can
 * be re-encoded for a server without 8BITMIME.
 */
export async function smtpSend(
  s: SmtpSettings,
  envelope: { from: string; to: string[] },
  message: (caps: Capabilities) => { bytes: Buffer; eightBit: boolean },
): Promise<SmtpResult> {
  const where = `${s.host}:${s.port}`;
  const timeoutMs = s.timeoutMs ?? 30_000;
  if (envelope.to.length === 0) throw new ReplyError('no-recipients', 'The draft has no recipient in To, Cc or Bcc.');
  const conn = new Connection(await connect(s, timeoutMs), where, timeoutMs);
  try {
    expect(await conn.read(), [220], 'the connection', where);
    const helo = s.heloName ?? (os.hostname() || 'localhost');
    let ehlo = await conn.command(`EHLO ${helo}`);
    expect(ehlo, [250], 'EHLO', where);
    let caps = capabilities(ehlo);
    if (s.security === 'starttls') {
      if (!caps.has('STARTTLS')) throw new ReplyError('smtp-refused', `The SMTP server ${where} does not offer STARTTLS.`);
      expect(await conn.command('STARTTLS'), [220], 'STARTTLS', where);
      try {
        await conn.upgrade({ host: s.host, servername: net.isIP(s.host) ? undefined : s.host, ca: s.ca });
      } catch (e) {
        throw new ReplyError('smtp-connect', `The TLS handshake with the SMTP server ${where} failed (${(e as Error).message}).`);
      }
      ehlo = await conn.command(`EHLO ${helo}`);
      expect(ehlo, [250], 'EHLO', where);
      caps = capabilities(ehlo);
    }
    if (s.user) {
      if (s.security === 'none' && !isLoopback(s.host)) {
        throw new ReplyError('smtp-auth', `Refusing to send the SMTP password to ${where} without TLS; set the security to starttls or tls.`);
      }
      const mechs = (caps.get('AUTH') ?? '').toUpperCase().split(/\s+/);
      const pass = s.password ?? '';
      if (mechs.includes('PLAIN')) {
        const token = Buffer.from(`\0${s.user}\0${pass}`, 'utf8').toString('base64');
        expect(await conn.command(`AUTH PLAIN ${token}`), [235], 'the login', where);
      } else if (mechs.includes('LOGIN')) {
        expect(await conn.command('AUTH LOGIN'), [334], 'the login', where);
        expect(await conn.command(Buffer.from(s.user, 'utf8').toString('base64')), [334], 'the login', where);
        expect(await conn.command(Buffer.from(pass, 'utf8').toString('base64')), [235], 'the login', where);
      } else {
        throw new ReplyError('smtp-auth', `The SMTP server ${where} offers no login method this client knows (PLAIN or LOGIN).`);
      }
    }
    const msg = message(caps);
    const body = msg.eightBit && caps.has('8BITMIME') ? ' BODY=8BITMIME' : '';
    expect(await conn.command(`MAIL FROM:<${envelope.from}>${body}`), [250], `the sender ${envelope.from}`, where);
    for (const rcpt of envelope.to) {
      expect(await conn.command(`RCPT TO:<${rcpt}>`), [250, 251], `the recipient ${rcpt}`, where);
    }
    expect(await conn.command('DATA'), [354], 'DATA', where);
    conn.writeRaw(dotStuff(msg.bytes));
    const done = await conn.read();
    expect(done, [250], 'the message', where);
    await conn.command('QUIT').catch(() => undefined);
    return { response: text(done) };
  } finally {
    conn.close();
  }
}
