"""What every game's reports share (reports/document.py, reports/plots.py): Markdown marks in HTML tables, intervals
that never print zero-wide, seat colours that show on a white page, legends only where there is something to name."""

import warnings

from matplotlib.colors import to_rgb

from reports.document import ci_range, pct, points_range, render_html, render_md
from reports.plots import SEAT_COLOURS, legend, new_figure, seat_colour


def test_code_marks_in_table_cells_and_headings_become_code_not_backticks():
    blocks = [("h1", "A `value` report"), ("table", ["entrant", "win rate (% of seat-games)"],
                                          [["`value:opening=pips`", "29.6%"], ["a < b & **c**", "1"]], ["l", "r"])]
    page = render_html(blocks, "A `value` report", {})
    assert "`" not in page
    assert "<td><code>value:<wbr>opening=<wbr>pips</code></td>" in page  # breaks after ':' and '=' only
    assert "<h1>A <code>value</code> report</h1>" in page
    assert "a &lt; b &amp; <strong>c</strong>" in page and "<title>A value report</title>" in page
    assert '<div class="table"><table>' in page  # the scrolling wrapper of a table wider than the page
    assert "| `value:opening=pips` | 29.6% |" in render_md(blocks)


def test_an_interval_with_a_width_never_prints_zero_wide():
    # the paired difference of a bot that won every game its rival did not: +49.96 to +50.00, not +50.0 to +50.0
    assert points_range([0.49962, 0.5]) == "+49.96 to +50.00"
    assert points_range([0.024, 0.04]) == "+2.4 to +4.0"
    assert ci_range([23.494, 23.506], 1) == "23.49–23.51"
    assert ci_range([0.0, 0.0009], 1, pct) == "0%–0.1%"
    assert ci_range([-0.5, 0.25], 2) == "-0.50 to 0.25"
    assert points_range([None, None]) == ci_range(None) == "—"


def test_seat_colours_show_on_a_white_page_and_stay_apart():
    """Every seat's colour darker than 0.75 relative luminance (Catan's white seat was #f4f4f4, 0.91, drawn white on
    white in the bar and line plots), and no two alike."""
    def luminance(colour: str) -> float:
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in to_rgb(colour)]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    assert all(luminance(c) < 0.75 for c in SEAT_COLOURS) and len(set(SEAT_COLOURS)) == len(SEAT_COLOURS)
    assert [seat_colour(i) for i in range(4)] == list(SEAT_COLOURS[:4]) and seat_colour(len(SEAT_COLOURS)) == \
        SEAT_COLOURS[0]
    from reports.seafarers import hexplot

    assert hexplot.SEAT_COLOURS is SEAT_COLOURS  # the board's pieces and the plots' marks agree


def test_a_legend_is_drawn_only_where_something_is_labelled():
    ax = new_figure(3, 2).add_subplot()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's "No artists with labels found" would raise here
        assert legend(ax, loc="upper right") is None
    ax.plot([0, 1], [0, 1], label="a line")
    assert [t.get_text() for t in legend(ax, loc="upper right").get_texts()] == ["a line"]
