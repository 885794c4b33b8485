"""A real SMTP server on 127.0.0.1 for the email tests (aiosmtpd, from `make deps`).

usage: smtp-server.py MAILDIR MODE [CERT KEY USER PASSWORD]
  MODE accept         every message is written to MAILDIR
       tempfail-once  the first DATA is answered 451, later ones are accepted
       reject         every RCPT is answered 550
       no-quit        every message is written to MAILDIR, and QUIT is never answered
  With CERT and KEY, STARTTLS is offered and required, and AUTH LOGIN/PLAIN checks USER/PASSWORD.
Prints "ready PORT" once it listens; runs until killed.
"""
import asyncio
import mailbox
import socket
import ssl
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Handler:
    def __init__(self, maildir, mode):
        self.box = mailbox.Maildir(maildir, create=True)
        self.mode = mode
        self.failed = False

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.mode == "reject":
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.mode == "tempfail-once" and not self.failed:
            self.failed = True
            return "451 4.3.0 try again later"
        self.box.add(envelope.original_content)
        return "250 Message accepted for delivery"

    async def handle_QUIT(self, server, session, envelope):
        if self.mode == "no-quit":
            await asyncio.sleep(3600)
        return "221 Bye"


def main():
    maildir, mode = sys.argv[1], sys.argv[2]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = {}
    if len(sys.argv) > 3:
        cert, key, user, password = sys.argv[3:7]
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)

        def authenticate(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
            return AuthResult(success=ok)

        options = dict(tls_context=context, require_starttls=True, authenticator=authenticate, auth_required=True)
    controller = Controller(Handler(maildir, mode), hostname="127.0.0.1", port=port, **options)
    controller.start()
    print("ready %d" % port, flush=True)
    try:
        while True:
            time.sleep(3600)
    finally:
        controller.stop()


main()
