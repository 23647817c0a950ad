import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { LoreError, httpRequest } from '../../../src/core/lore/http';
import { fetchMessage, fetchThread } from '../../../src/core/lore/client';

// A loopback server whose paths misbehave in the ways real servers do.
let server: http.Server;
let base = '';
const sockets = new Set<Socket>();

before(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/hang')) return; // accepts, never answers
    if (url === '/loop') {
      res.writeHead(302, { Location: '/loop' }).end();
    } else if (url === '/hop1') {
      res.writeHead(301, { Location: '/hop2' }).end();
    } else if (url === '/hop2') {
      res.writeHead(307, { Location: `${base}ok` }).end();
    } else if (url === '/ok') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: x\n\nbody\n');
    } else if (url === '/big-declared') {
      res.writeHead(200, { 'Content-Length': String(10_000_000) });
      res.write(Buffer.alloc(1000));
    } else if (url === '/big-chunked') {
      res.writeHead(200, { 'Content-Type': 'application/gzip' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (res.write(chunk)) if (res.destroyed) return;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    } else if (url === '/to-ftp') {
      res.writeHead(302, { Location: 'ftp://example.org/x' }).end();
    } else if (url.endsWith('/t.mbox.gz')) {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>challenge</html>');
    } else {
      res.writeHead(404).end('not found');
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

async function rejects(p: Promise<unknown>, kind: string, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof LoreError, String(e));
    assert.equal(e.kind, kind);
    assert.match(e.message, message);
    assert.doesNotMatch(e.message, /\n/);
    return true;
  });
}

test('a server that never answers hits the timeout', async () => {
  const t0 = Date.now();
  await rejects(httpRequest(`${base}hang`, { timeoutMs: 300 }), 'timeout', /^127\.0\.0\.1:\d+ did not answer within 0\.3 s$/);
  assert.ok(Date.now() - t0 < 5000);
});

test('cancelling through an AbortSignal stops the request', async () => {
  const ac = new AbortController();
  const p = httpRequest(`${base}hang`, { signal: ac.signal, timeoutMs: 60_000 });
  setTimeout(() => ac.abort(), 100);
  await rejects(p, 'aborted', /^fetching from 127\.0\.0\.1:\d+ was cancelled$/);
  const done = new AbortController();
  done.abort();
  await rejects(httpRequest(`${base}ok`, { signal: done.signal }), 'aborted', /cancelled/);
});

test('redirects are followed to the end, loops are cut short, non-HTTP targets refused', async () => {
  const res = await httpRequest(`${base}hop1`);
  assert.equal(res.status, 200);
  assert.equal(res.url, `${base}ok`);
  assert.match(res.body.toString(), /^From mboxrd@z/);
  await rejects(httpRequest(`${base}loop`), 'http', /redirected more than 5 times/);
  await rejects(httpRequest(`${base}to-ftp`), 'http', /redirected to a non-HTTP address/);
});

test('answers over the size cap are refused, declared or streamed', async () => {
  await rejects(httpRequest(`${base}big-declared`, { maxBytes: 1_000_000 }), 'too-large', /sent more than 1000000 bytes, the most accepted/);
  await rejects(httpRequest(`${base}big-chunked`, { maxBytes: 2 * 1024 * 1024 }), 'too-large', /sent more than 2 MiB/);
});

test('offline: a refused connection and an unknown host are one sentence each', async () => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  await rejects(httpRequest(`http://127.0.0.1:${port}/x`), 'network', /^127\.0\.0\.1:\d+ refused the connection \(is the server running\?\)$/);
  // .invalid never resolves (RFC 2606), with or without a network.
  await rejects(httpRequest('http://no-such-host.invalid/all/x@y/t.mbox.gz', { timeoutMs: 10_000 }), 'network', /^cannot resolve no-such-host\.invalid \(are you offline\?\)$/);
});

test('a page that is not an mbox (a bot challenge, an error page) is refused by name', async () => {
  await rejects(fetchThread('x@y', { base }), 'bad-response', /did not send an mbox for <x@y> \(got text\/html\)/);
  await rejects(fetchMessage('x@y', { base }), 'not-found', /^no message <x@y> on 127\.0\.0\.1:\d+$/);
});
