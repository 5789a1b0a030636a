#!/usr/bin/env python3
"""The front ends (cli/, and bench/ but for the classic single-file programs it times
against) know no plug-in by name: no string literal is a puzzle family's name, a puzzle
name or an engine's name, no identifier is a puzzle, encoder or engine type, and no
#include reaches into engines/. What they need of a family or an engine comes from the
registry (the family's declarations: text options, classic encoder, benchmark plan; the
engine's capabilities, options, extra result figures and job hooks).

usage: test_front_end_names.py [SEARCHBENCH]   (the family names from `SEARCHBENCH list
--json` when given, else from the puzzles' kFamily declarations)
"""
import glob
import json
import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def front_end_sources():
    files = glob.glob(os.path.join(ROOT, "cli", "*.[ch]pp")) + glob.glob(os.path.join(ROOT, "bench", "*.[ch]pp"))
    return sorted(files)


# String literals that spell a plug-in's name but mean something else, with the reason.
NOT_A_PLUGIN = {
    ("cli/context.hpp", "mpi"): "the JSON context's key for the MPI library's version, not the engine",
}


def read(path):
    with open(path) as f:
        return f.read()


def without_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def declared_names(folder, constant):
    names = set()
    for path in glob.glob(os.path.join(ROOT, folder, "*.hpp")):
        names.update(re.findall(constant + r'\s*=\s*"([^"]+)"', read(path)))
    return names


def family_names():
    """The families, the puzzles and the engines, by name."""
    if len(sys.argv) > 1:
        doc = json.loads(subprocess.run([sys.argv[1], "list", "--json"], capture_output=True, text=True,
                                        check=True).stdout)
        return ({f["name"] for f in doc["families"]}, {p["name"] for f in doc["families"] for p in f["puzzles"]},
                {e["name"] for e in doc["engines"]} | declared_names("engines", "kName"))
    return declared_names("puzzles", "kFamily"), set(), declared_names("engines", "kName")


def plugin_types():
    types = set()
    for folder in ("puzzles", "encoders", "engines"):
        for path in glob.glob(os.path.join(ROOT, folder, "*.hpp")):
            types.update(re.findall(r"^(?:class|struct)\s+(\w+)", read(path), flags=re.M))
    return types


class FrontEndsNameNoPlugin(unittest.TestCase):
    def test_no_family_or_puzzle_name_and_no_plugin_type(self):
        families, puzzles, engines = family_names()
        self.assertIn("magic", families)
        self.assertIn("parallel", engines)
        self.assertIn("mpi", engines)
        # A puzzle name's family prefix: "msquare" of "msquare-2x4", "checkers" of "checkers-21".
        prefixes = {re.sub(r"-[0-9x]+$", "", p) for p in puzzles} | families
        types = plugin_types()
        self.assertIn("MagicBoard", types)
        self.assertIn("ParallelBfs", types)
        found = []
        for path in front_end_sources():
            code = without_comments(read(path))
            relative = os.path.relpath(path, ROOT)
            for literal in re.findall(r'"((?:[^"\\\n]|\\.)*)"', code):
                if (relative, literal) in NOT_A_PLUGIN:
                    continue
                word = re.sub(r"-[0-9x]+$", "", literal)
                if literal in families or word in prefixes:
                    found.append(f"{os.path.relpath(path, ROOT)}: the string \"{literal}\" names a puzzle family")
                if literal in engines:
                    found.append(f"{os.path.relpath(path, ROOT)}: the string \"{literal}\" names an engine")
            for header in re.findall(r'#include\s+"(engines/[^"]+)"', code):
                found.append(f"{os.path.relpath(path, ROOT)}: includes {header}")
            for name in sorted(types):
                if re.search(r"\b" + re.escape(name) + r"\b", code):
                    found.append(f"{os.path.relpath(path, ROOT)}: uses the plug-in type {name}")
        self.assertEqual(found, [])

    def test_the_scan_sees_a_family_name_and_a_type(self):
        code = without_comments('x == "magic"; // "checkers" in a comment\nMagicBoard b;')
        self.assertEqual(re.findall(r'"((?:[^"\\\n]|\\.)*)"', code), ["magic"])
        self.assertTrue(re.search(r"\bMagicBoard\b", code))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
