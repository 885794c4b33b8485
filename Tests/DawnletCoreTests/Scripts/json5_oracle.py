"""The json5 package (PyPI) as the oracle for dawnlet's JSON5 reader: reads a JSON list of cases
[{"text": "<a JSON5 document>", "ours": "<our reading of it, as JSON>"|null}] from the file named by
its argument and prints a JSON list with, for each, null when json5 reads the text as ours does
(both refusing it, when ours is null), else what json5 made of it."""
import json, sys
import json5

def joined(value):
    """json5 leaves a \\uD83D\\uDE00 pair as two surrogates; in JSON5 (ECMAScript strings,
    UTF-16) it is one character, as ours reads it."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16")
    if isinstance(value, list):
        return [joined(v) for v in value]
    if isinstance(value, dict):
        return {joined(k): joined(v) for k, v in value.items()}
    return value

out = []
for case in json.load(open(sys.argv[1])):
    try:
        theirs = joined(json5.loads(case["text"], allow_duplicate_keys=False))
    except Exception as error:
        out.append(None if case["ours"] is None else "refused: %s" % error)
        continue
    if case["ours"] is not None and json.loads(case["ours"]) == theirs:
        out.append(None)
    else:
        out.append(json.dumps(theirs, sort_keys=True))
print(json.dumps(out))
