"""Layout files (`tabletop beacon score`): awkward text gives one line naming the file and the row."""

from __future__ import annotations

import pytest

from analyzer.beacon.layout import read_layout
from analyzer.beacon.tiles import load_tiles
from analyzer.cli import main
from analyzer.errors import UserError

PLUS_OF_WATER = "0,0,p01\n-1,0,p25\n1,0,p26\n0,-1,p27\n0,1,p28\n"


@pytest.fixture(scope="module")
def tiles():
    return load_tiles()


def _layout(tmp_path, text: str | bytes, name: str = "layout.csv"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def _error(path, tiles) -> str:
    with pytest.raises(UserError) as info:
        read_layout(path, tiles)
    msg = str(info.value)
    assert "\n" not in msg and msg.isprintable() and len(msg) < 300
    return msg


def test_plain_layout(tmp_path, tiles):
    layout = read_layout(_layout(tmp_path, "row,col,tile\n" + PLUS_OF_WATER), tiles)
    assert layout["row"].tolist() == [-1, 0, 0, 0, 1]


@pytest.mark.parametrize("prefix, newline", [("\ufeff", "\n"), ("", "\r\n"), ("", "\r"), ("\ufeff", "\r\n")])
def test_bom_crlf_and_cr_only(tmp_path, tiles, prefix, newline):
    text = prefix + ("row,col,tile\n" + PLUS_OF_WATER).replace("\n", newline)
    layout = read_layout(_layout(tmp_path, text), tiles)
    assert layout["tile"].shape == (5,)


@pytest.mark.parametrize("coord", ["10000000000000000000", "-10000000000000000000", "9" * 5000,
                                   "1000000001", "-1000000001"])
def test_coordinates_out_of_range(tmp_path, tiles, coord):
    msg = _error(_layout(tmp_path, f"row,col,tile\n{coord},0,p01\n"), tiles)
    assert msg.startswith("layout.csv: row 2: ") and "1,000,000,000" in msg


def test_coordinates_at_the_bound_are_fine(tmp_path, tiles):
    text = "row,col,tile\n1000000000,-1000000000,p01\n+1000000000,-0999999999,p25\n"
    layout = read_layout(_layout(tmp_path, text), tiles)
    assert layout["row"].tolist() == [1000000000] * 2
    assert layout["col"].tolist() == [-1000000000, -999999999]


def test_leading_zeros_do_not_reach_int(tmp_path, tiles):
    text = "row,col,tile\n" + "0" * 5000 + ",-" + "0" * 5000 + ",p01\n"
    assert read_layout(_layout(tmp_path, text), tiles)["row"].tolist() == [0]


@pytest.mark.parametrize("cell", ["1_0", "٣", "1.0", "0x1", ""])
def test_coordinates_must_be_plain_integers(tmp_path, tiles, cell):
    msg = _error(_layout(tmp_path, f"row,col,tile\n0,{cell},p01\n"), tiles)
    assert msg.startswith("layout.csv: row 2: ") and "integers" in msg


def test_field_over_the_csv_limit(tmp_path, tiles):
    msg = _error(_layout(tmp_path, "row,col,tile\n0,0," + "x" * 200_000 + "\n"), tiles)
    assert msg.startswith("layout.csv: row 2: ") and "field larger than field limit" in msg


def test_rows_are_file_lines(tmp_path, tiles):
    text = "# my board\n\nrow,col,tile\n# centre\n0,0,p01\n\n0,1,zz9\n"
    assert _error(_layout(tmp_path, text), tiles).startswith("layout.csv: row 7: unknown tile id 'zz9'")


def test_unicode_line_separator_stays_in_its_row(tmp_path, tiles):
    msg = _error(_layout(tmp_path, "row,col,tile\n0,0,p01\u2028x\n"), tiles)
    assert msg.startswith("layout.csv: row 2: unknown tile id 'p01\\u2028x'")


def test_not_utf8(tmp_path, tiles):
    msg = _error(_layout(tmp_path, b"row,col,tile\n0,0,p\xff1\n"), tiles)
    assert msg.startswith("layout.csv: not UTF-8")


def test_cli_prints_one_line(tmp_path, capsys):
    code = main(["beacon", "score", str(_layout(tmp_path, "row,col,tile\n10000000000000000000,0,p01\n"))])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: layout.csv: row 2: ") and err.count("\n") == 1
