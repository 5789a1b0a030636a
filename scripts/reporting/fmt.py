"""Number formats and the Markdown writer. Every table the writer prints is also kept, so
the document can write it as CSV beside the Markdown (same header, same cells)."""
import csv
import os
import re

SI = (("E", 1e18), ("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3))


def _scaled(x, two_decimals_from, small):
    """1,234 / 12.3, then two decimals down to `two_decimals_from`, then the `small` format."""
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= two_decimals_from:
        return f"{x:.2f}"
    return format(x, small)


def ms(x):
    """A time in ms: 1,234 / 12.3 / 1.23 / 0.0713."""
    return _scaled(x, 1, ".3g")


def sd(x):
    """A standard deviation: two significant digits, no exponent for the sizes that occur."""
    if x is None:
        return "-"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.2g}" if x >= 1e-4 or x == 0 else f"{x:.1e}"


def count(x):
    """A count or a rate: 2,772 below a million, then 3 significant digits and k/M/G/T/P/E."""
    if x is None:
        return "-"
    if x < 1e6:
        return f"{x:,.0f}" if x >= 1 or x == 0 else f"{x:.3g}"
    return rate(x)


def rate(x):
    """States (or queries) per second: 3 significant digits with k/M/G/T."""
    if x is None:
        return "-"
    for unit, scale in SI:
        if x >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.3g}"


def nbytes(b):
    if b is None:
        return "-"
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= scale:
            return f"{b / scale:.3g} {unit}"
    return f"{b:.0f} B"


def ratio(x):
    """How many times: 1,234x / 12.3 / 1.23 / 0.123 / 0.0123 (never a bare 0.0)."""
    return _scaled(x, 0.1, ".2g")


def ratio_ci(rc):
    """'2.31 [2.19, 2.43]': a ratio of medians with its 95% CI (stats.ratio_ci), '-' without one."""
    if rc is None:
        return "-"
    value, low, high = rc
    return ratio(value) + ("" if low is None else f" [{ratio(low)}, {ratio(high)}]")


def percent(x):
    return "-" if x is None else f"{x * 100:.1f}%"


def ci(row, fmt=ms):
    """'[low, high]' of a row's 95% CI of the median, '-' without one."""
    if row.get("ci_low") is None:
        return "-"
    return f"[{fmt(row['ci_low'])}, {fmt(row['ci_high'])}]"


def median_ci(row):
    """'1.32 [1.30, 1.35]': the median time with its 95% CI."""
    return ms(row.get("median")) + ("" if row.get("ci_low") is None else " " + ci(row))


def mean_sd(row):
    if row.get("mean") is None:
        return "-"
    return ms(row["mean"]) + ("" if row.get("sd") is None else f" ± {sd(row['sd'])}")


def cv(row, limit):
    """The CV in percent, bold above the limit."""
    if row.get("cv") is None:
        return "-"
    text = percent(row["cv"])
    return f"**{text}**" if row["cv"] > limit else text


def utc(date):
    """'2026-12-01T06:50:18Z' -> '2026-12-01 06:50'."""
    return str(date or "?")[:16].replace("T", " ")


def slug(title):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


class Writer:
    """Markdown lines, with links made relative to `base` (the run folder seen from the page),
    the headings for the table of contents and every table for its CSV."""

    def __init__(self, base=""):
        self.base = base
        self.lines = []
        self.headings = []  # (level, title, anchor)
        self.tables = []  # (file name, header, rows of cells)
        self._anchors = {}

    def __call__(self, line=""):
        self.lines.append(line)

    def link(self, path):
        return self.base + path

    def heading(self, title, note="", level=2):
        anchor = slug(title)
        seen = self._anchors.get(anchor, 0)
        self._anchors[anchor] = seen + 1
        self.headings.append((level, title, anchor + (f"-{seen}" if seen else "")))
        self("#" * level + " " + title)
        self()
        if note:
            self(note)
            self()

    def table(self, name, header, align, rows, home=None):
        """A Markdown table and, below it, the link to the same table as CSV (tables/NAME.csv
        in the run folder, or under home, a path relative to the page)."""
        if not rows:
            return
        self.row(header)
        self("|" + "".join("---|" if a == "l" else "---:|" for a in align))
        for cells in rows:
            self.row(cells)
        self()
        csv_name = f"tables/{name}.csv"
        self.tables.append((csv_name, header, rows))
        self(f"<sub>CSV: [{csv_name}]({self.link(csv_name) if home is None else home + csv_name})</sub>")
        self()

    def csv_only(self, name, header, rows):
        """A table kept as CSV alone (tables/NAME.csv), for lists too long to read on the page;
        returns its link."""
        csv_name = f"tables/{name}.csv"
        self.tables.append((csv_name, header, rows))
        return self.link(csv_name)

    def row(self, cells):
        """One table row; a '|' inside a cell (a command's regular expression) is escaped."""
        self("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")

    def toc(self, skip=()):
        return [f"{'  ' * (level - 2)}- [{title}](#{anchor})" for level, title, anchor in self.headings
                if title not in skip and level <= 3]


def open_own(path, newline=None, binary=False):
    """`path` opened for writing as a file of the report's own: a symbolic link (or anything
    not a plain file) there is refused, never written through, so nothing outside the folder
    changes."""
    from .load import RunError
    if os.path.islink(path) or (os.path.exists(path) and not os.path.isfile(path)):
        raise RunError(f"{path}: a link or something other than a file where the report writes; left as it is")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except OSError as e:
        raise RunError(f"{path}: cannot write it ({e.strerror})")
    return os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", newline=newline)


def own_folder(path):
    """Makes the folder `path` (a subfolder the report writes) unless something else is there."""
    from .load import RunError
    if os.path.islink(path) or (os.path.exists(path) and not os.path.isdir(path)):
        raise RunError(f"{path}: a link or a file where the report keeps a folder; left as it is")
    os.makedirs(path, exist_ok=True)


def plain(cell):
    """A Markdown cell as plain text for CSV: no bold, no backticks, no escaped pipes."""
    return re.sub(r"\*\*(.*?)\*\*", r"\1", str(cell)).replace("`", "").replace("\\|", "|")


def write_tables(folder, tables):
    """Each table of a Writer as CSV under folder/tables/; stale ones removed."""
    own_folder(os.path.join(folder, "tables"))
    written = set()
    for name, header, rows in tables:
        path = os.path.join(folder, name)
        written.add(os.path.normpath(path))
        with open_own(path, newline="") as f:
            out = csv.writer(f)
            out.writerow(header)
            out.writerows([plain(c) for c in cells] for cells in rows)
    for stale in os.listdir(os.path.join(folder, "tables")):
        path = os.path.normpath(os.path.join(folder, "tables", stale))
        if stale.endswith(".csv") and path not in written:
            os.remove(path)
