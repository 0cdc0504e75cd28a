"""Helpers every test folder shares."""

import html
import json
import os
import re
import subprocess
from pathlib import Path

from analyzer.cli import main

FULL_TESTS = os.environ.get("TABLETOP_FULL_TESTS") == "1"


def sample(full: int, ci: int) -> int:
    """How many games, deals or examples a long kernel-against-reference run takes: `full` with
    TABLETOP_FULL_TESTS=1 (`TABLETOP_FULL_TESTS=1 scripts/test.sh`), else CI's sample, which keeps CI in its time."""
    return full if FULL_TESTS else ci


def run_cli(args, capsys):
    """`tabletop ARGS` in this process: (exit code, stdout, stderr)."""
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, err, fragment=""):
    """The CLI's answer to a user's mistake: exit code 2 and one line `error: ...` naming it."""
    return code == 2 and err.startswith("error: ") and err.count("\n") == 1 and fragment in err


CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists()), None)
_PROBE = """<script>window.addEventListener("load", () => {
  const page = document.documentElement, images = [...document.images];
  const result = {scroll_width: page.scrollWidth, client_width: page.clientWidth, images: images.length,
                  broken: images.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt)};
  const out = document.createElement("pre"); out.id = "layout-probe"; out.textContent = JSON.stringify(result);
  document.body.appendChild(out);
});</script>"""


def render_in_browser(html_file: Path, work: Path, width: int = 1280) -> dict:
    """Load a report in headless Chromium at `width` px: {scroll_width, client_width, images, broken}."""
    page = work / "probed.html"
    page.write_text(html_file.read_text("utf-8").replace("</body>", _PROBE + "</body>"), "utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync",
         "--disable-background-networking", "--disable-component-update", f"--user-data-dir={work / 'profile'}",
         f"--window-size={width},900", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="layout-probe">(.*?)</pre>', done.stdout)
    assert found, f"Chromium gave no layout (exit {done.returncode}): {done.stderr[-400:]}"
    return json.loads(html.unescape(found.group(1)))
