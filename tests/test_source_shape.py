#!/usr/bin/python3
"""The shape of the sources: no file over 400 lines, no function over 80.

  python3 tests/test_source_shape.py            the checks (unittest)
  python3 tests/test_source_shape.py --list     what is over the limits now, in the allow-list's format

Checked: C++ (.hpp, .cpp) under core/ engines/ encoders/ heuristics/ puzzles/ registry/ judges/ cli/ bench/,
and Python under scripts/ (tests/ is not checked). A function's length runs from the first line
of its declaration to the line of its closing brace (C++) or from its `def` line to its last line
(Python: ast's end_lineno - lineno + 1); a lambda or nested function counts toward the function
it is in (and a nested Python def is checked on its own as well).

The limits are a guide for design, not a reason to move code where it does not belong: a
reviewer may let a file or function stay over its limit by naming it in
tests/source_shape_allow.txt with the reason, `path -- reason` for a file, `path:function --
reason` for a function (C++: Class::name as declared). The test fails on anything over a limit
that the list does not name, on an entry without a reason, and on an entry that is no longer
over its limit (remove it from the list).

The C++ scan: comments, string and character literals (raw strings too) and preprocessor lines
are blanked first, so braces inside them do not count (digit separators such as 1'000 are not
character literals). Then braces are matched: a '{' at namespace or class scope opens a function
body where the text before it (since the last ';' or scope) ends with ')' and maybe const,
override, final, noexcept, mutable, & or a trailing '-> type', or ends a constructor's member
initializers; 'namespace ... {' and 'extern "C" {' open namespace scope; 'class/struct/union
Name ... {' opens class scope, whose member functions are named Class::name.
"""
import ast
import os
import re
import sys
import tempfile
import unittest
from dataclasses import dataclass

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ALLOW = os.path.join(ROOT, "tests", "source_shape_allow.txt")
CPP_DIRS = ("core", "engines", "encoders", "heuristics", "puzzles", "registry", "judges", "cli", "bench")
PY_DIRS = ("scripts",)
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80


@dataclass
class Function:
    name: str
    line: int  # first line
    end: int   # last line

    @property
    def length(self):
        return self.end - self.line + 1


# --- C++ -------------------------------------------------------------------------------------

def _blank(text):
    return re.sub(r"[^\n]", " ", text)


def _quoted_end(text, i, quote):
    """The index just past the literal that opens at text[i] (an ordinary string or char)."""
    j = i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


def _word_before(text, i):
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_."):
        j -= 1
    return text[j:i]


def _literal_end(text, i):
    """Where the string or character literal starting at text[i] ends, or None where the quote
    opens no literal (a digit separator)."""
    before = _word_before(text, i)
    if text[i] == "'":
        return None if before[:1].isdigit() else _quoted_end(text, i, "'")
    raw = re.fullmatch(r"(?:u8|u|U|L)?R", before)
    m = re.match(r'"([^()\\ \n]{0,16})\(', text[i:]) if raw else None
    if m:
        close = text.find(")" + m.group(1) + '"', i + len(m.group(0)))
        return len(text) if close < 0 else close + len(m.group(1)) + 2
    return _quoted_end(text, i, '"')


def _preprocessor_end(text, i):
    """The end of the directive starting at text[i] (continued lines included)."""
    while True:
        j = text.find("\n", i)
        if j < 0:
            return len(text)
        if not text[:j].rstrip(" \t\r").endswith("\\"):
            return j
        i = j + 1


def code_only(text):
    """The text with comments, literals' contents and preprocessor lines blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        end = None
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c == "#" and text[text.rfind("\n", 0, i) + 1:i].strip() == "":
            end = _preprocessor_end(text, i)
        elif c in "\"'":
            close = _literal_end(text, i)
            if close is not None:  # keep the quotes, blank what they hold
                out.append(c + _blank(text[i + 1:close - 1]) + text[close - 1:close])
                i = close
                continue
        if end is not None:
            out.append(_blank(text[i:end]))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


FUNCTION_END = re.compile(r"\)\s*(?:(?:const|volatile|override|final|noexcept|mutable|try|&&|&)\b\s*|&&?\s*|"
                          r"noexcept\s*\([^;{}]*\)\s*|->\s*[^;{}=]+?\s*|requires\b[^;{}]*?)*$")
INITIALIZERS = re.compile(r"\)\s*(?:noexcept\s*)?:\s*[\w:]+\s*(?:<[^;{}]*>)?\s*[({]")
CLASS_HEAD = re.compile(r"\b(?:class|struct|union)\s+(?:alignas\s*\([^)]*\)\s*|\[\[[^\]]*\]\]\s*)*([\w:]+)"
                        r"(?:\s*<[^;{}]*>)?(?:\s+final)?\s*(?::[^;{}]*)?$|\b(?:class|struct|union)\s*$")
NAMESPACE_HEAD = re.compile(r'\bnamespace\b[\w\s:]*$|\bextern\s*"\s*"\s*$')
NAME = re.compile(r"((?:[A-Za-z_]\w*\s*::\s*)*(?:operator\s*(?:\(\s*\)|[^\s(]+)|~?[A-Za-z_]\w*))\s*(?:<[^()]*>)?\s*\(")
LABEL = re.compile(r"^\s*(?:(?:public|private|protected)\s*:(?!:)\s*)+")


def classify(head):
    """The scope a '{' opens at namespace or class scope, from the text before it."""
    h = head.strip()
    if NAMESPACE_HEAD.search(h):
        return "namespace"
    if "(" in h and (FUNCTION_END.search(h) or (INITIALIZERS.search(h) and h.endswith((")", "}")))):
        return "function"
    if CLASS_HEAD.search(h) and not re.search(r"\benum\b", h):
        return "class"
    return "other"


def _function_name(head, classes):
    m = NAME.search(head)
    name = re.sub(r"\s+", "", m.group(1)) if m else "?"
    return "::".join([c for c in classes if c] + [name])


def cpp_functions(text):
    """Every function body at namespace or class scope: Function(name, first line, last line)."""
    code = code_only(text)
    scopes = [("namespace", "", 0)]  # kind, name (a class's or a function's), first line
    found, head_start, line = [], 0, 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
            continue
        kind = scopes[-1][0]
        if c == "{":
            if kind in ("function", "inner", "other"):
                scopes.append(("inner" if kind != "other" else "other", "", line))
                continue
            raw = code[head_start:i]
            label = LABEL.match(raw)
            head = raw[label.end() if label else 0:].lstrip()
            first = line - head.count("\n")  # the declaration's first line, access labels left out
            new = classify(head)
            classes = [s[1] for s in scopes if s[0] == "class"]
            name = _function_name(head, classes) if new == "function" else (
                (CLASS_HEAD.search(head.strip()).group(1) or "") if new == "class" else "")
            scopes.append((new, name, first))
            if new != "other":
                head_start = i + 1
        elif c == "}" and len(scopes) > 1:
            closed = scopes.pop()
            if closed[0] == "function":
                found.append(Function(closed[1], closed[2], line))
            if closed[0] in ("function", "class", "namespace"):
                head_start = i + 1
        elif c == ";" and kind in ("namespace", "class"):
            head_start = i + 1
    return found


# --- Python ----------------------------------------------------------------------------------

def python_functions(text):
    """Every def (methods and nested ones too), named Class.method / outer.inner."""
    found = []

    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append(Function(prefix + child.name, child.lineno, child.end_lineno))
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)
    walk(ast.parse(text), "")
    return found


# --- the tree --------------------------------------------------------------------------------

def sources(root=ROOT):
    """(path relative to root, 'cpp' or 'py') of every checked file, sorted."""
    out = []
    for dirs, kind, ends in ((CPP_DIRS, "cpp", (".hpp", ".cpp")), (PY_DIRS, "py", (".py",))):
        for top in dirs:
            for folder, subdirs, files in os.walk(os.path.join(root, top)):
                subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
                out += [(os.path.relpath(os.path.join(folder, f), root), kind) for f in files if f.endswith(ends)]
    return sorted(out)


def offenders(root=ROOT):
    """{allow-list key: 'path:line: what'} of everything over a limit."""
    over = {}
    for path, kind in sources(root):
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > MAX_FILE_LINES:
            over[path] = f"{path}:1: the file has {lines} lines (limit {MAX_FILE_LINES})"
        for fn in (cpp_functions(text) if kind == "cpp" else python_functions(text)):
            key = f"{path}:{fn.name}"
            if fn.length > MAX_FUNCTION_LINES and (key not in over or fn.length > over[key][0]):
                over[key] = (fn.length, f"{path}:{fn.line}: function {fn.name} has {fn.length} lines "
                                        f"(limit {MAX_FUNCTION_LINES})")
    return {k: v if isinstance(v, str) else v[1] for k, v in over.items()}


def allowed_with_reasons(path=ALLOW):
    """{allow-list key: the reviewer's reason ('' when none is given)}."""
    out = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, reason = line.partition(" -- ")
            out[key.strip()] = reason.strip()
    return out


def allowed(path=ALLOW):
    return set(allowed_with_reasons(path))


def problems(root=ROOT, allow=ALLOW):
    """(what is over a limit and not allowed, allowed entries no longer over), each sorted."""
    over, ok = offenders(root), allowed(allow)
    return sorted(v for k, v in over.items() if k not in ok), sorted(ok - set(over))


class Shape(unittest.TestCase):
    def test_nothing_new_is_over_the_limits(self):
        new, _ = problems()
        self.assertEqual(new, [], "over the limits and not in tests/source_shape_allow.txt:\n  " + "\n  ".join(new))

    def test_every_allowed_entry_gives_its_reason(self):
        unexplained = sorted(k for k, reason in allowed_with_reasons().items() if not reason)
        self.assertEqual(unexplained, [], "tests/source_shape_allow.txt: give each entry its reason, `path -- reason`:\n  "
                         + "\n  ".join(unexplained))

    def test_every_allowed_entry_is_still_over_its_limit(self):
        _, stale = problems()
        self.assertEqual(stale, [], "no longer over the limits: remove from tests/source_shape_allow.txt:\n  "
                         + "\n  ".join(stale))


class AllowList(unittest.TestCase):
    def test_new_offenders_and_stale_entries_are_both_found(self):
        with tempfile.TemporaryDirectory() as root:
            files = {"core/long.hpp": "int x;\n" * 401, "core/short.hpp": body(80),
                     "cli/f.cpp": body(81), "scripts/a.py": "def g():\n" + "    x = 1\n" * 80}
            for path, text in files.items():
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(root, path), "w") as f:
                    f.write(text)
            allow = os.path.join(root, "allow.txt")
            with open(allow, "w") as f:
                f.write("# a comment\ncore/long.hpp -- one technique in one file\ncore/short.hpp:f -- a table\n")
            new, stale = problems(root, allow)
        self.assertEqual(new, ["cli/f.cpp:1: function f has 81 lines (limit 80)",
                               "scripts/a.py:1: function g has 81 lines (limit 80)"])
        self.assertEqual(stale, ["core/short.hpp:f"])


# --- fields that nothing reads -------------------------------------------------------------

SEARCH_OPTIONS = os.path.join("core", "search_options.hpp")


def search_options_fields(root=ROOT):
    """The data members of struct SearchOptions, by name."""
    text = open(os.path.join(root, SEARCH_OPTIONS), encoding="utf-8").read()
    body = re.search(r"struct SearchOptions \{(.*?)\n\};", text, re.S).group(1)
    code = re.sub(r"//[^\n]*", "", body)
    return re.findall(r"^\s*[\w:<>, ]+?\s+(\w+)\s*(?:=[^;]*)?;", code, re.M)


def unread_fields(root=ROOT):
    """Fields of SearchOptions that no source outside its own file names as `.field`."""
    texts = [open(os.path.join(root, p), encoding="utf-8").read()
             for p, kind in sources(root) if kind == "cpp" and p != SEARCH_OPTIONS]
    return [f for f in search_options_fields(root) if not any(re.search(r"\." + f + r"\b", t) for t in texts)]


class DeadFields(unittest.TestCase):
    def test_every_search_option_is_read(self):
        fields = search_options_fields()
        self.assertIn("max_depth", fields)  # the parse found the struct
        self.assertIn("deadline", fields)
        self.assertEqual(unread_fields(), [], "fields of SearchOptions that nothing reads: delete them")


def body(n, first="  int x = 0;"):
    """A C++ function of n lines in all: its signature, n - 2 lines of body (the first ones
    `first`), its closing brace."""
    inner = first.split("\n")
    return "int f(int a) {\n" + "\n".join(inner + ["  x += a;"] * (n - 2 - len(inner))) + "\n}\n"


class CppScanner(unittest.TestCase):
    def lengths(self, text):
        return {fn.name: fn.length for fn in cpp_functions(text)}

    def test_81_lines_is_over_and_80_is_not(self):
        self.assertEqual(self.lengths(body(81)), {"f": 81})
        self.assertEqual(self.lengths(body(80)), {"f": 80})
        self.assertGreater(self.lengths(body(81))["f"], MAX_FUNCTION_LINES)
        self.assertLessEqual(self.lengths(body(80))["f"], MAX_FUNCTION_LINES)

    def test_braces_in_strings_chars_and_comments_do_not_count(self):
        tricky = ('  const char* s = "}}} {";  // }\n  /* } { */ char c = \'}\';\n'
                  '  auto r = R"x(}")} )x"; char q = \'\\\'\'; int n = 1\'000\'000;')
        text = body(10, tricky) + "#define CLOSE }\nint g() {\n  return 0;\n}\n"
        self.assertEqual(self.lengths(text), {"f": 10, "g": 3})

    def test_scopes_methods_lambdas_and_declarations(self):
        text = "\n".join([
            "namespace a::b {", "namespace {", "struct alignas(64) Slot { int v{0}; };", "}",
            "template <class T>", "class Box final : public Base<T> {", " public:",
            "  explicit Box(int v) : v_(v), w_{v} {", "    auto l = [&](int x) {", "      return x;", "    };", "  }",
            "  int get() const noexcept { return v_; }", "  auto size() const -> std::size_t {", "    return 1;", "  }",
            " private:", "  int v_;", "};", "enum class E : int { one, two };", "int table[] = {1, 2, 3};",
            "void Box::put(int v) & {", "  if (v) { v_ = v; }", "}", "}  // namespace a::b", ""])
        got = [(fn.name, fn.line, fn.length) for fn in cpp_functions(text)]
        self.assertEqual(got, [("Box::Box", 8, 5), ("Box::get", 13, 1), ("Box::size", 14, 3), ("Box::put", 22, 3)])


class PythonScanner(unittest.TestCase):
    def test_81_lines_is_over_and_80_is_not(self):
        make = lambda n: "def f():\n" + "    x = 1\n" * (n - 1)
        self.assertEqual([(fn.name, fn.length) for fn in python_functions(make(81))], [("f", 81)])
        self.assertEqual([(fn.name, fn.length) for fn in python_functions(make(80))], [("f", 80)])

    def test_methods_and_nested_functions_are_named_by_their_scope(self):
        text = "class A:\n    def m(self):\n        def inner():\n            pass\n        return inner\n"
        self.assertEqual([(fn.name, fn.length) for fn in python_functions(text)], [("A.m", 4), ("A.m.inner", 2)])


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        over = offenders()
        for key in sorted(over):
            print(key, file=sys.stdout)
            print("  " + over[key], file=sys.stderr)
        sys.exit(0)
    unittest.main()
