#!/usr/bin/env python3
"""The front ends (cli/, and bench/ but for the classic single-file programs it times
against) know no plug-in by name: no string literal is a puzzle family's name or a puzzle
name, and no identifier is a puzzle or encoder type. What they need of a family comes from
the registry (the family's declarations: text options, classic encoder, benchmark plan).

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


def without_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def family_names():
    if len(sys.argv) > 1:
        doc = json.loads(subprocess.run([sys.argv[1], "list", "--json"], capture_output=True, text=True,
                                        check=True).stdout)
        return {f["name"] for f in doc["families"]}, {p["name"] for f in doc["families"] for p in f["puzzles"]}
    names = set()
    for path in glob.glob(os.path.join(ROOT, "puzzles", "*.hpp")):
        names.update(re.findall(r'kFamily\s*=\s*"([^"]+)"', open(path).read()))
    return names, set()


def plugin_types():
    types = set()
    for path in glob.glob(os.path.join(ROOT, "puzzles", "*.hpp")) + glob.glob(os.path.join(ROOT, "encoders", "*.hpp")):
        types.update(re.findall(r"^(?:class|struct)\s+(\w+)", open(path).read(), flags=re.M))
    return types


class FrontEndsNameNoPlugin(unittest.TestCase):
    def test_no_family_or_puzzle_name_and_no_plugin_type(self):
        families, puzzles = family_names()
        self.assertIn("magic", families)
        # A puzzle name's family prefix: "msquare" of "msquare-2x4", "checkers" of "checkers-21".
        prefixes = {re.sub(r"-[0-9x]+$", "", p) for p in puzzles} | families
        types = plugin_types()
        self.assertIn("MagicBoard", types)
        found = []
        for path in front_end_sources():
            code = without_comments(open(path).read())
            for literal in re.findall(r'"((?:[^"\\\n]|\\.)*)"', code):
                word = re.sub(r"-[0-9x]+$", "", literal)
                if literal in families or word in prefixes:
                    found.append(f"{os.path.relpath(path, ROOT)}: the string \"{literal}\" names a puzzle family")
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
