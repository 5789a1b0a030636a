"""A run folder's raw JSON files, plain or gzip-compressed.

Google Benchmark's files are the bulk of a run folder (megabytes of repetitions and
contexts) and compress about twelve to one, so a folder keeps them as NAME.json.gz; every
reader here takes NAME.json or NAME.json.gz alike. Read one with `zcat bench.json.gz`, or
`gunzip -k` for a tool that wants the plain file (Google Benchmark's compare.py).
"""
import glob
import gzip
import json
import os

SUFFIXES = (".json", ".json.gz")
# The files that compress: the benchmark rounds. The others are small, and other scripts
# open them by their plain names (run.json: scripts/run_manifest.py).
COMPRESSED = ("bench",)


def read_json(path):
    """The JSON document of a plain or a .gz file; a repeated key (old contexts' two "date"s)
    keeps the last one, reproduce.sh's."""
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(path) as f:
        return json.load(f)


def stem(path):
    name = os.path.basename(path)
    return name[:-3] if name.endswith(".gz") else name


def pick(folder, prefix):
    """The raw files PREFIX*.json and PREFIX*.json.gz of a folder, one per name: where both
    forms are there (a compression cut short) the plain file, the one it was made from."""
    found = {}
    for suffix in (".json.gz", ".json"):
        for path in glob.glob(os.path.join(glob.escape(folder), prefix + "*" + suffix)):
            found[stem(path)] = path
    return [found[name] for name in sorted(found)]


def _write_gz(path, data):
    """data gzip-compressed at path, byte for byte the same each time (no name, no time in
    the header), so a folder compressed again does not change; never through a link."""
    from .fmt import open_own
    with open_own(path, binary=True) as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as z:
            z.write(data)


def compress(folder):
    """Compresses the folder's bench*.json in place (NAME.json -> NAME.json.gz, the plain file
    removed once the compressed one reads back the same); returns the names compressed.
    Links and anything not a plain file are left as they are."""
    done = []
    for prefix in COMPRESSED:
        for path in sorted(glob.glob(os.path.join(glob.escape(folder), prefix + "*.json"))):
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            target = path + ".gz"
            _write_gz(target, data)
            with gzip.open(target, "rb") as f:
                if f.read() != data:
                    os.remove(target)
                    continue
            os.remove(path)
            done.append(os.path.basename(target))
    return done
