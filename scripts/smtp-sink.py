#!/usr/bin/env python3
"""A loopback SMTP server for tests, built on aiosmtpd (Debian: python3-aiosmtpd).

Writes each message it accepts, byte for byte as received after DATA (dot-stuffing
undone), to <out>/<n>.eml and its envelope to <out>/<n>.json. Prints
"PORT <n>" on stdout once it listens, then runs until stdin closes or it is killed.

usage: smtp-sink.py --out DIR [--auth USER:PASS [--auth-only PLAIN|LOGIN]] [--tls CERT KEY [--implicit-tls]]
                    [--refuse-rcpt ADDR]... [--no-8bitmime]
"""
import argparse
import asyncio
import json
import os
import socket
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    def __init__(self, out, refuse):
        self.out = out
        self.refuse = set(a.lower() for a in refuse)
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.refuse:
            return '550 5.1.1 mailbox unavailable'
        envelope.rcpt_tos.append(address)
        return '250 OK'

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.out, str(self.count))
        with open(base + '.eml', 'wb') as f:
            f.write(envelope.original_content)
        with open(base + '.json', 'w') as f:
            json.dump({'mail_from': envelope.mail_from, 'rcpt_tos': envelope.rcpt_tos,
                       'mail_options': envelope.mail_options}, f)
        return '250 OK message %d accepted' % self.count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--auth')
    ap.add_argument('--tls', nargs=2, metavar=('CERT', 'KEY'))
    ap.add_argument('--implicit-tls', action='store_true', help='TLS from the first byte (port 465 style) instead of STARTTLS')
    ap.add_argument('--refuse-rcpt', action='append', default=[])
    ap.add_argument('--no-8bitmime', action='store_true')
    ap.add_argument('--auth-only', choices=['PLAIN', 'LOGIN'])
    a = ap.parse_args()

    kwargs = {}
    if a.auth:
        user, password = a.auth.split(':', 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
                and auth_data.password.decode() == password
            return AuthResult(success=ok, handled=False)

        kwargs.update(authenticator=authenticator, auth_require_tls=bool(a.tls) and not a.implicit_tls)
        if a.auth_only:
            kwargs.update(auth_exclude_mechanism=[m for m in ('PLAIN', 'LOGIN') if m != a.auth_only])
    ctl_kwargs = {}
    if a.tls:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(a.tls[0], a.tls[1])
        if a.implicit_tls:
            ctl_kwargs['ssl_context'] = ctx
        else:
            kwargs.update(tls_context=ctx, require_starttls=True)

    class Server(SMTP):
        async def push(self, status):
            if a.no_8bitmime and status.startswith('250-8BITMIME'):
                return
            return await super().push(status)

    class Ctl(Controller):
        def factory(self):
            return Server(self.handler, **self.SMTP_kwargs)

    probe = socket.socket()
    probe.bind(('127.0.0.1', 0))
    port = probe.getsockname()[1]
    probe.close()
    ctl = Ctl(Sink(a.out, a.refuse_rcpt), hostname='127.0.0.1', port=port, **ctl_kwargs, **kwargs)
    ctl.start()
    print('PORT %d' % port, flush=True)
    try:
        sys.stdin.read()
    finally:
        ctl.stop()


if __name__ == '__main__':
    main()
