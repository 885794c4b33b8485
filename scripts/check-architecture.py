#!/usr/bin/env python3
"""Checks that docs/ARCHITECTURE.md names only files and Swift names that exist.

Run from the repository's root (`make test` does): `python3 scripts/check-architecture.py [PAGE]`.
Every backticked span outside a fenced block is looked at once:

- a path: one ending in `.swift`, `.h` or `.py` with no slash (`Planner+Splice.swift`) must be a file
  somewhere under Sources/ or Tests/, or at the root (`Package.swift`); one with a slash
  (`DawnletCore/Plan.swift`, `Commands/ItemCommands.swift`, `Tests/DawnletTestSupport`, `systemd/`)
  must be a file or folder under Sources/, under one module of Sources/ or Tests/ (`Commands/…` is
  in DawnletCLI) or at the root; `*` matches within a name;
- a file-name suffix (`+Expansion`): some `Type+Expansion.swift` must exist;
- a Swift name (`Type`, `Type.Nested.member`, `Type.member(label:)`, `.member`, `Type(label:)`,
  `member(label:)`): each UpperCamelCase part must be a type declared in Sources/ or Tests/ (struct,
  enum, class, actor, protocol, typealias or extension), each lower-case part a member declared
  somewhere (func, var, let, case, init, subscript). It does not prove the member belongs to that
  very type, only that both names exist.

Anything else is skipped: words in capitals (`READY=1`, `SIGTERM`, `DAWNLET_EMAIL`), SQL, shell
commands, config keys, a lower-case identifier without an argument list (`unwritten`), C functions
(`sd_notify`, `posix_spawn`). Names that are not ours (the standard library's, a D-Bus method's)
are listed in NOT_OURS below.

Each stale name is printed as `PAGE:LINE: `name`: why`, and the exit status is then 1.
"""

import fnmatch
import os
import re
import sys

# Names the page uses that are not declared in our Swift: the standard library's and Foundation's,
# C types from a library's headers, D-Bus members, SQL functions, and modules outside Sources/.
NOT_OURS = {
    "Sendable",  # the standard library's protocol
    "Process",  # Foundation's
    "Glibc",
    "Synchronization",
    "FoundationEssentials",
    "Foundation",
    "Dispatch",
    "CURLcode",  # libcurl's result codes (curl/curl.h)
    "CURLMcode",
    "CURLUcode",
    "Notify",  # org.freedesktop.Notifications: methods and signals
    "GetCapabilities",
    "ActionInvoked",
    "NotificationClosed",
    "unixepoch",  # SQLite's
}

# `.ics`: a file extension, not a member.
FILE_EXTENSIONS = {"ics", "swift", "json5", "service", "lock", "sqlite"}

IDENTIFIER = r"\$?[A-Za-z_][A-Za-z0-9_]*"
# `Type.member(label:) -> Result`, `.member`, `member(label:)`: the chain, then any argument list.
SWIFT_NAME = re.compile(
    rf"""^(?P<chain>(?:[A-Z][A-Za-z0-9_]*|\.{IDENTIFIER}|[a-z][A-Za-z0-9_]*(?=[.(]))(?:\.{IDENTIFIER})*)
        (?P<arguments>\(.*\))?
        (?:\s*->\s*.+)?$
    """,
    re.VERBOSE,
)
# An argument list of labels only, as Swift names a function: `()`, `(to:)`, `(_:now:also:)`.
LABELS = re.compile(r"^\((?:[A-Za-z_][A-Za-z0-9_]*:)*\)$")
PATH = re.compile(r"^[A-Za-z0-9_.+*-]+(?:/[A-Za-z0-9_.+*-]*)+$|^[A-Za-z0-9_+*-]+\.(?:swift|h|py)$")
TYPE_DECL = re.compile(r"\b(?:struct|enum|class|actor|protocol|typealias|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)")
MEMBER_DECL = re.compile(r"\b(?:func|var|let|init|subscript)\s+`?([A-Za-z_][A-Za-z0-9_]*)")
CASE_DECL = re.compile(r"^\s*(?:(?:indirect|public|internal|package)\s+)*case\s+(.+)$")
FENCE = re.compile(r"^\s*```")
SPAN = re.compile(r"`([^`\n]+)`")


def tree(root):
    """Every file and folder under Sources/ and Tests/, relative to the root."""
    found = set()
    for top in ("Sources", "Tests"):
        for folder, folders, names in os.walk(os.path.join(root, top)):
            for name in names + folders:
                found.add(os.path.relpath(os.path.join(folder, name), root))
    return found


def declarations(root, paths):
    """The type names and member names declared in Sources/ and Tests/."""
    types, members = set(), {"init"}
    for path in sorted(path for path in paths if path.endswith(".swift")):
        with open(os.path.join(root, path), encoding="utf-8") as file:
            text = file.read()
        for match in TYPE_DECL.finditer(text):
            types.update(part for part in match.group(1).split(".") if part)
        members.update(MEMBER_DECL.findall(text))
        for line in text.splitlines():
            case = CASE_DECL.match(line)
            if not case:
                continue
            # `case a, b(Int), c = "c"`: the leading name of each comma-separated part at depth 0.
            depth, part = 0, ""
            for char in case.group(1) + ",":
                if char in "([":
                    depth += 1
                elif char in ")]":
                    depth -= 1
                elif char == "," and depth == 0:
                    name = re.match(r"\s*`?([A-Za-z_][A-Za-z0-9_]*)", part)
                    if name:
                        members.add(name.group(1))
                    part = ""
                    continue
                part += char
    return types, members


def check_path(span, root, paths, modules):
    """Why a path is stale, or None."""
    if "/" not in span:
        names = {os.path.basename(path) for path in paths} | set(os.listdir(root))
        if any(fnmatch.fnmatchcase(name, span) for name in names):
            return None
        return "no such file under Sources/, Tests/ or the root"
    span = span.rstrip("/")
    places = [span, os.path.join("Sources", span)]
    places += [os.path.join(top, module, span) for top, module in modules]
    for place in places:
        if "*" in place and any(fnmatch.fnmatchcase(path, place) for path in paths):
            return None
        if os.path.exists(os.path.join(root, place)):
            return None
    return "no such file or folder under Sources/, a module or the root"


def check_name(chain, types, members, modules):
    """Why a Swift name is stale, or None."""
    module_names = {module for _, module in modules}
    for index, part in enumerate(part for part in chain.split(".") if part):
        if part.startswith("$"):
            # A property wrapper's projection (`$plan`): what follows is the library's.
            return None if part[1:] in members else f"no member {part[1:]} declared in Sources/ or Tests/"
        if part in NOT_OURS or (index == 0 and part in module_names):
            continue
        if part[0].isupper():
            if part not in types:
                return f"no type {part} declared in Sources/ or Tests/"
        elif part not in members:
            return f"no member {part} declared in Sources/ or Tests/"
    return None


def check_span(span, root, paths, modules, types, members):
    """Why one backticked span names something that does not exist, or None (also when skipped)."""
    if PATH.match(span):
        return check_path(span, root, paths, modules)
    if re.fullmatch(r"\+[A-Z][A-Za-z0-9]*", span):
        return None if any(path.endswith(span + ".swift") for path in paths) else f"no file named *{span}.swift"
    match = SWIFT_NAME.match(span)
    if not match:
        return None
    chain, arguments = match.group("chain"), match.group("arguments")
    parts = chain.lstrip(".").split(".")
    if chain.startswith(".") and len(parts) == 1 and parts[0] in FILE_EXTENSIONS:
        return None
    if chain[0].islower() and not (arguments and LABELS.match(arguments)):
        return None  # a lower-case head is Swift only with labels: `zone(named:)`, not `unixepoch(x)`
    if re.fullmatch(r"[A-Z_]+", chain):
        return None  # a word in capitals: SIGTERM, INSERT, EX_CONFIG (but `JSON5` is a type)
    return check_name(chain, types, members, modules)


def stale_names(page, root):
    paths = tree(root)
    modules = [
        (top, entry)
        for top in ("Sources", "Tests")
        for entry in sorted(os.listdir(os.path.join(root, top)))
        if os.path.isdir(os.path.join(root, top, entry))
    ]
    types, members = declarations(root, paths)
    problems = []
    with open(page, encoding="utf-8") as file:
        lines = file.read().splitlines()
    fenced = False
    for number, line in enumerate(lines, start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for span in SPAN.findall(line):
            why = check_span(span.strip(), root, paths, modules, types, members)
            if why:
                problems.append((number, span.strip(), why))
    return problems


def main():
    root = os.getcwd()
    page = sys.argv[1] if len(sys.argv) > 1 else "docs/ARCHITECTURE.md"
    problems = stale_names(page, root)
    for number, span, why in problems:
        print(f"{page}:{number}: `{span}`: {why}")
    if problems:
        print(f"{page}: {len(problems)} name(s) of what does not exist", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
