#!/usr/bin/python3
"""scripts/report.py takes its engine and family facts from the run's registry.json (what
scripts/reproduce.sh saved of `searchbench list --json`), and from reporting/registry.py's
built-in default only for run folders without one.

  python3 tests/test_report_registry.py
"""
import json
import os
import unittest

from test_report import Base, bench, make_run, section


class Registry(Base):
    def test_the_classic_encoder_comes_from_the_runs_registry_or_the_old_default(self):
        rows = [bench("bfs/ring/nibbles/tiles-2x3/threads:1", [2.0, 2.1, 2.2, 2.1, 2.0]),
                bench("bfs/ring/cantor/tiles-2x3/threads:1", [4.0, 4.1, 4.2, 4.1, 4.0]),
                bench("bfs/ring/bitpack/msquare-2x3/threads:1", [1.0, 1.1, 1.2, 1.1, 1.0]),
                bench("bfs/ring/cantor/msquare-2x3/threads:1", [0.5, 0.51, 0.52, 0.51, 0.5])]
        old = make_run(self.results, "20260101T000000Z-aaaaaaa-hosta", rows)
        new = make_run(self.results, "20260102T000000Z-aaaaaaa-hosta", rows, manifest={})
        with open(os.path.join(new, "registry.json"), "w") as f:  # a family given a classic program, one without
            json.dump({"engines": [], "families": [{"name": "tiles", "names": "tiles-RxC", "classic_encoder": "nibbles"},
                                                   {"name": "magic", "names": "msquare-2xK", "classic_encoder": ""}]}, f)
        text_old, text_new = self.report(old), self.report(new)
        self.assertIn("x classic", section(text_old, "### msquare-2x3"))
        self.assertIn("| 1.41M | 1000 B | 720 | - | 2.16 | fastest |", text_old)  # against ring + bitpack, the default's
        self.assertNotIn("x classic", section(text_old, "### tiles-2x3"))
        self.assertIn("x classic", section(text_new, "### tiles-2x3"))
        self.assertNotIn("x classic", section(text_new, "### msquare-2x3"))
        self.assertIn("registry.json", section(text_new, "## Files of this run"))
        self.assertNotIn("registry.json", section(text_old, "## Files of this run"))


if __name__ == "__main__":
    unittest.main()
