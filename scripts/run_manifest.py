#!/usr/bin/python3
"""Adds facts to a run folder's run.json (scripts/reproduce.sh's record of the run).

usage: scripts/run_manifest.py RUN_JSON [--machine] [--lines KEY] [--append KEY=JSON] [KEY=TEXT | KEY:=JSON ...]

KEY=TEXT sets a key to a text (a commit such as 6961628 stays text); KEY:=JSON to a JSON
value (5, true, [1.2, 0.9]). --machine adds the machine's description (scripts/machine_info.py) as
machine_info and its one-line summary as machine. --lines KEY sets KEY to the lines of
stdin (a list of text). --append KEY=JSON appends a value to the list KEY. The file is
replaced whole, so a reader never sees half of it.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine_info import describe  # noqa: E402


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    path, args = argv[0], argv[1:]
    doc = {}
    if os.path.exists(path):
        with open(path) as f:
            doc = json.load(f)
    while args:
        arg = args.pop(0)
        if arg == "--machine":
            info = describe()
            doc.update(machine=info["machine"], machine_info=info)
        elif arg == "--lines" and args:
            doc[args.pop(0)] = [line.rstrip("\n") for line in sys.stdin if line.strip()]
        elif arg == "--append" and args and "=" in args[0]:
            key, text = args.pop(0).split("=", 1)
            doc.setdefault(key, []).append(json.loads(text))
        elif ":=" in arg and not arg.startswith("-"):
            key, text = arg.split(":=", 1)
            doc[key] = json.loads(text)
        elif "=" in arg and not arg.startswith("-"):
            key, text = arg.split("=", 1)
            doc[key] = text
        else:
            sys.exit(f"run_manifest.py: bad argument '{arg}'\n{__doc__}")
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main(sys.argv[1:])
