"""Reads every message of a Maildir with Python's email parser (an independent reader of what
dawnlet-remind sent) and prints them as JSON: decoded headers, the decoded body with LF line
ends, and the parser's complaints."""
import email
import email.policy
import json
import mailbox
import sys

box = mailbox.Maildir(sys.argv[1], create=False)
out = []
for key in box.keys():
    message = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
    out.append({
        "subject": str(message["subject"]),
        "from": str(message["from"]),
        "to": str(message["to"]),
        "date": str(message["date"]),
        "message_id": str(message["message-id"]),
        "x_dawnlet_key": str(message["x-dawnlet-key"]),
        "headers": [k.lower() for k in message.keys()],
        "content_type": message.get_content_type(),
        "charset": message.get_content_charset(),
        "body": message.get_content().replace("\r\n", "\n"),
        "defects": [type(d).__name__ for d in message.defects],
    })
print(json.dumps(sorted(out, key=lambda m: (m["date"], m["subject"]))))
