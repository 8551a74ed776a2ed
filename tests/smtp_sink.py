"""A real SMTP server for the mail tests (Debian's python3-aiosmtpd).

Accepts every message and writes it, exactly as received, to DIR/NNNN.eml, and beside it
DIR/NNNN.json: the envelope and the message as Python's email package reads it (headers
decoded and unfolded, the MIME structure, the plain and HTML bodies decoded), for the tests to
assert on. Files are written aside and renamed, so a reader never sees half of one. A
recipient whose address starts with "bounce" is refused with 550 (a permanent failure).

    /usr/bin/python3 tests/smtp_sink.py DIR PORT

PORT 0 picks a free port. The port in use is printed as "PORT n" once the server listens.
"""

import asyncio
import email
import email.policy
import itertools
import json
import os
import sys

from aiosmtpd.smtp import SMTP


class Sink:
    def __init__(self, directory):
        self.directory = directory
        existing = [int(n.split(".")[0]) for n in os.listdir(directory) if n.endswith(".eml")]
        self.numbers = itertools.count(max(existing, default=0) + 1)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().startswith("bounce"):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        number = next(self.numbers)
        base = os.path.join(self.directory, "%04d" % number)
        meta = {"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}
        meta.update(describe(envelope.original_content))
        for suffix, data in ((".eml", envelope.original_content), (".json", json.dumps(meta).encode())):
            tmp = base + suffix + ".tmp"
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, base + suffix)
        return "250 2.0.0 Queued as %04d" % number


def describe(raw):
    """The message as a mail client reads it."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    headers = {}
    for name in msg.keys():
        headers[name.lower()] = [str(v) for v in msg.get_all(name)]
    parts = [p.get_content_type() for p in msg.walk()]
    text = msg.get_body(preferencelist=("plain",))
    html = msg.get_body(preferencelist=("html",))
    return {
        "headers": headers,
        "parts": parts,
        "text": text.get_content() if text is not None else None,
        "html": html.get_content() if html is not None else None,
        "defects": [str(d) for d in msg.defects],
    }


async def main(directory, port):
    loop = asyncio.get_running_loop()
    sink = Sink(directory)
    server = await loop.create_server(
        lambda: SMTP(sink, hostname="sink.test", enable_SMTPUTF8=True), host="127.0.0.1", port=port
    )
    print("PORT %d" % server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
