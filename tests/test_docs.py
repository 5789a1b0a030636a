#!/usr/bin/python3
"""The README and docs/ as text: no build needed.

  python3 tests/test_docs.py

- README.md stays a front door: at most 150 lines.
- Every relative link in README.md and docs/*.md names a file that exists and, where it gives
  an anchor into a Markdown file, a heading of that file (GitHub's anchor rules).
- Every number in the README's "Headline results" section appears in a results/ file that the
  section links to: no figure is typed that a run did not write.
"""
import os
import re
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
README = os.path.join(ROOT, "README.md")
MAX_README_LINES = 150


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def without_code(text):
    """The text with fenced code blocks and inline code blanked (links there are no links)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path):
    """GitHub's anchors for the headings of a Markdown file (duplicates get -1, -2, ...)."""
    seen, out = {}, set()
    for line in without_code(read(path)).splitlines():
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(2).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(path):
    return re.findall(r"\]\(([^)\s]+)\)", without_code(read(path)))


def markdown_files():
    docs = os.path.join(ROOT, "docs")
    return [README] + sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))


def section(text, heading):
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


class Docs(unittest.TestCase):
    def test_readme_is_short(self):
        n = len(read(README).splitlines())
        self.assertLessEqual(n, MAX_README_LINES, f"README.md has {n} lines; move detail into docs/")

    def test_relative_links_resolve(self):
        bad = []
        for path in markdown_files():
            for link in links(path):
                if re.match(r"[a-z][a-z0-9+.-]*:", link):
                    continue  # https:, mailto:
                file, _, anchor = link.partition("#")
                target = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
                where = f"{os.path.relpath(path, ROOT)}: {link}"
                if not os.path.exists(target):
                    bad.append(f"{where} (no such file)")
                elif anchor and target.endswith(".md") and anchor not in anchors(target):
                    bad.append(f"{where} (no such heading)")
        self.assertEqual(bad, [])

    def test_headline_figures_come_from_results(self):
        text = section(read(README), "## Headline results")
        sources = sorted({os.path.normpath(os.path.join(ROOT, link.partition("#")[0]))
                          for link in links(README) if link.startswith("results/")
                          and ("](" + link + ")") in text})
        self.assertTrue(sources, "the section links no report under results/")
        written = "".join(read(p) for p in sources)
        body = without_code(text) + " ".join(re.findall(r"`([^`\n]*)`", text))
        numbers = set(re.findall(r"\d[\d,]*(?:\.\d+)?", re.sub(r"\]\([^)]*\)", "]", body)))
        missing = sorted(n for n in numbers if n not in written)
        self.assertEqual(missing, [], f"numbers in the README's headline results that no linked report holds: {missing}")


if __name__ == "__main__":
    unittest.main()
