"""What searchbench says about its engines and puzzle families, as a run recorded it.

scripts/reproduce.sh saves `searchbench list --json` as registry.json in the run folder (the
schema: cli/list_command.cpp's list_json; engines[] with name, threaded, counts_only, ...;
families[] with name, names, sizes, encoders, classic_encoder, puzzles[]). The report takes
these facts from there, so that a family or engine added to the registry needs no change here.

Run folders written before reproduce.sh saved the file have none; for those alone the report
uses DEFAULT below, the registry's facts as they stood then (of a family the report reads its
classic encoder; of an engine, what a `searchbench run` command for it needs: reporting/commands.py).
"""
import json
import os
import re

FILE = "registry.json"

# For run folders without registry.json only: the engines and the classic single-file contest
# solutions' encoder per family as the registry named them when those runs were made.
DEFAULT = {
    "engines": [{"name": name, "threaded": threaded, "uses_encoder": name != "naive",
                 "options": ["--top-down"] if name == "parallel" else []}
                for name, threaded in (("ring", False), ("parallel", True), ("bidir", False), ("iddfs", False),
                                       ("naive", False), ("external", True), ("frontier", True))],
    "families": [
        {"name": "magic", "names": "msquare, msquare-2xK, sicily1515, sicily1515-2xK", "classic_encoder": "bitpack"},
        {"name": "checkers", "names": "checkers-N", "classic_encoder": "maskhole"},
    ],
}


def _pattern(name):
    """A name of the registry's `names` ("msquare-2xK", "tiles-RxC") as a regular expression:
    each capital letter stands for a size."""
    return "".join("[0-9]+" if c.isupper() else re.escape(c) for c in name.strip())


class Registry:
    def __init__(self, doc, saved=True):
        self.doc = doc
        self.saved = saved  # False: DEFAULT, for a run folder without registry.json
        self._families = []
        for fam in doc.get("families", []):
            names = [n for n in str(fam.get("names", "")).split(",") if n.strip()]
            names += [fam.get("name", "")] + [p["name"] for p in fam.get("puzzles", []) if "name" in p]
            self._families.append((re.compile("|".join(f"(?:{_pattern(n)})" for n in names if n)), fam))

    def engine(self, name):
        """The registry's entry of engine `name`, or None where it has no such engine (a file
        that lists no engine at all, made by hand, has the default's)."""
        listed = self.doc.get("engines") or DEFAULT["engines"]
        return next((e for e in listed if e.get("name") == name), None)

    def family_of(self, puzzle):
        """The registry's family entry that names this puzzle, or None."""
        return next((fam for pattern, fam in self._families if pattern.fullmatch(puzzle)), None)

    def classic_encoder(self, puzzle):
        """The encoder of the family's classic single-file solution, or None where it has none."""
        fam = self.family_of(puzzle)
        return (fam or {}).get("classic_encoder") or None


def load(folder):
    """The run folder's registry.json, or DEFAULT where the run has none."""
    path = os.path.join(folder, FILE)
    if not os.path.exists(path):
        return Registry(DEFAULT, saved=False)
    with open(path) as f:
        return Registry(json.load(f))
