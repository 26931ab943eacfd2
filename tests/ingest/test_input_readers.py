"""Every file treecalc opens is read through a bound: its type and size before it is read, its lines counted on
every kind of line end, its columns as a workbook's, an unclosed quote at a cost bounded by one cell."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from tests.helpers.bounds import refused, run_capped
from treecalc.files import InputRefused, count_lines, read_limited
from treecalc.ingest import SurveyError, read_survey
from treecalc.ingest.isolated import read_csv_table
from treecalc.ingest.limits import Limits, MemoryBudget
from treecalc.ingest.sources import read_csv_rows
from treecalc.rules.croton_on_hudson import ch223_water


@pytest.mark.parametrize(
    "args, words",
    [
        (["water", "penalty", "--csv", "/dev/zero"], "account file /dev/zero is not a regular file"),
        (["excavation", "volume", "--grid", "/dev/zero"], "grid file /dev/zero is not a regular file"),
        (
            ["excavation", "volume", "--existing", "/dev/zero", "--proposed", "/dev/zero"],
            "existing surface file /dev/zero is not a regular file",
        ),
        (["excavation", "volume", "--sections", "/dev/zero"], "sections file /dev/zero is not a regular file"),
    ],
)
def test_a_device_is_refused_by_its_type_fast(args, words):
    # /dev/zero grew the companions' readers to 5.3-5.9 GB and a MemoryError traceback
    refused(args, words)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "bills.csv"
    os.mkfifo(fifo)
    refused(["water", "penalty", "--csv", str(fifo)], "is not a regular file")
    refused(["assess", "--fee-schedule", str(fifo)], "--fee-schedule", "not a regular file")


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    big = tmp_path / "grid.csv"
    big.write_bytes(b"x,y,existing,proposed\n" + b"0,0,1,1\n" * 200_000)  # 1.6 MB
    monkeypatch.setenv("TREECALC_INPUT_MB", "1")
    with pytest.raises(InputRefused, match=r"grid file .* is over the 1 MB limit .*TREECALC_INPUT_MB"):
        read_limited(big, "grid")
    monkeypatch.setenv("TREECALC_INPUT_MB", "2")
    assert len(read_limited(big, "grid")) == big.stat().st_size


def test_lines_are_counted_on_every_kind_of_line_end():
    # "a\r" "b\r\n" "c\n" "d": four lines; CR alone ended nothing for a count of "\n"
    assert count_lines("a\rb\r\nc\nd") == 4
    assert count_lines("a\r\r") == 2 and count_lines("") == 0 and count_lines("a") == 1


def test_a_companion_csv_with_cr_line_ends_is_read_and_bounded(tmp_path, monkeypatch):
    # an old Mac export: bills ended by CR only, read as rows like any other
    f = tmp_path / "account.csv"
    f.write_bytes(b"kind,date,amount\rbill,2026-01-15,100.00\rbill,2026-02-15,50.00\r")
    t = read_csv_table(f, "account")
    assert t["amount"].tolist() == ["100.00", "50.00"]
    # the limit given to the reader (the parse runs in a child process, which a monkeypatch here may not reach)
    with pytest.raises(
        InputRefused, match="account file account.csv has 3 lines, over the limit of 1 rows and a header line"
    ):
        read_csv_table(f, "account", max_rows=1)


def test_a_companion_csv_header_of_a_million_columns_is_refused(tmp_path):
    f = tmp_path / "grid.csv"
    f.write_text(",".join(f"c{i}" for i in range(1_000_000)) + "\n1,2\n")
    start = time.monotonic()
    with pytest.raises(InputRefused, match="its header has 1,000,000 columns, over the limit of 1,000"):
        read_csv_table(f, "grid")
    assert time.monotonic() - start < 5


def _write(path: Path, text: str, newline: str = "\n") -> Path:
    path.write_bytes(text.replace("\n", newline).encode())
    return path


def test_a_survey_with_cr_line_ends_is_held_to_the_row_limit(tmp_path):
    # 1,200,000 rows ended by CR alone were read (exit 0) past the 1,048,576-row limit; here the limit is lowered
    # to 1,000 and 1,200 CR-ended rows are refused before they are split into cells
    rows = "".join(f"{i},Acer rubrum,10\r" for i in range(1_200))
    f = tmp_path / "cr.csv"
    f.write_bytes(("Tag,Species,DBH\r" + rows).encode())
    with pytest.raises(SurveyError, match=r"it has 1,201 lines, over the limit of 1,000 rows"):
        read_survey(f, limits=Limits(rows=1_000))


def test_a_survey_csv_of_too_many_columns_is_refused_as_a_workbook_would_be(tmp_path):
    f = tmp_path / "wide.csv"
    f.write_text(",".join(f"c{i}" for i in range(5_000)) + "\n" + ",".join("1" for _ in range(5_000)) + "\n")
    with pytest.raises(SurveyError, match=r"row 1 has 5,000 columns, over the limit of 1,000 columns"):
        read_survey(f)


def test_the_cli_refuses_a_million_column_survey_fast(tmp_path):
    f = tmp_path / "wide.csv"
    f.write_text(",".join(f"c{i}" for i in range(1_000_000)) + "\n1,2,3\n")
    refused(["survey", str(f)], "row 1 has 1,000,000 columns, over the limit of 1,000 columns")


def test_unclosed_quotes_cost_at_most_one_cell_each():
    # 100 quotes opened and never closed in 200,000 rows: each re-read what followed it (~50 s); now each costs
    # at most one cell's length (the text limit) and the rows read are the same: every row counted, the 100
    # rows with the open quote read alone
    lines = [f"{i},Acer rubrum,10,note" for i in range(200_000)]
    opened = list(range(1_000, 200_000, 2_000))  # 100 rows
    for i in opened:
        lines[i] = f'{i},Acer rubrum,10,"unclosed'
    text = "Tag,Species,DBH,Notes\n" + "\n".join(lines) + "\n"
    start = time.process_time()  # CPU time: a machine shared with other work must not fail the test
    rows, broken, warnings = read_csv_rows(text, ",", max_record=10_000)
    took = time.process_time() - start
    assert len(rows) == 200_001 and len(broken) == 100 and len(warnings) == 100
    # row k of the text is line k + 1 (the header is line 1): the quote opened on line i + 2
    assert sorted(line for _, line in broken.values()) == [i + 2 for i in opened]
    assert rows[opened[0] + 1] == [str(opened[0]), "Acer rubrum", "10", "unclosed"]
    assert rows[opened[0] + 2] == [str(opened[0] + 1), "Acer rubrum", "10", "note"]
    assert took < 10, took


def test_a_well_quoted_cell_on_several_lines_is_kept():
    text = 'Tag,Species,Notes\r\n1,"Red maple\r\nAcer rubrum",x\r\n2,Oak,"a ""b"" c"\r\n'
    rows, broken, _ = read_csv_rows(text, ",", max_record=1_000)
    assert rows == [["Tag", "Species", "Notes"], ["1", "Red maple\r\nAcer rubrum", "x"], ["2", "Oak", 'a "b" c']]
    assert broken == {}


def test_a_quote_left_open_past_the_cell_limit_is_a_broken_row_naming_its_line():
    # a quote opened on line 2, closed (by a stray quote) 5,000 lines later: past the 1,000-character limit of a
    # cell, the record is not read as one cell; line 2 is read alone and said, the lines after it are rows
    body = "\n".join(f"{i},oak" for i in range(3, 5_003))
    text = f'Tag,Species\n2,"open\n{body}\n5003,"closed"\n'
    rows, broken, warnings = read_csv_rows(text, ",", max_record=1_000)
    assert broken == {1: (1, 2)} and rows[1] == ["2", "open"]
    assert rows[2] == ["3", "oak"] and len(rows) == 5_003
    assert warnings[0].startswith("line 2: a quote opened here is never closed")


def test_the_water_account_is_linear_in_its_bills():
    # 10,000 bills of $100.00 due through 2025, every other one paid on its due date, stated on 2026-01-01:
    # 139 s when every day asked every bill. Every payment is applied (5,000 x $100.00 = $500,000.00), and what is
    # owed is the rest of the charges plus the penalties
    import datetime as dt

    first = dt.date(2025, 1, 1)
    due = [(first + dt.timedelta(days=k % 365)).isoformat() for k in range(10_000)]
    bills = [("100.00", d, f"bill {k}") for k, d in enumerate(due)]
    pays = [(d, "100.00") for k, d in enumerate(due) if k % 2 == 0]
    start = time.monotonic()
    s = ch223_water.account_statement(bills, pays, as_of="2026-01-01")
    assert time.monotonic() - start < 30
    assert s.payments_total == 500_000
    assert s.charge_outstanding + s.penalties_outstanding == s.total_due
    assert s.penalties_assessed > 0


def test_a_memory_budget_holds_concurrent_reads_to_its_total():
    budget = MemoryBudget(8)
    running, peak, waited = [0.0], [0.0], []
    lock = threading.Lock()

    def read(i: int) -> None:
        with budget.reserve(4, on_wait=lambda ahead: waited.append(i)) as gb:
            with lock:
                running[0] += gb
                peak[0] = max(peak[0], running[0])
            time.sleep(0.2)
            with lock:
                running[0] -= gb

    threads = [threading.Thread(target=read, args=(i,)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert peak[0] == 8  # two 4 GB reads at once, never three
    assert len(waited) >= 3  # the others were told they were queued
    assert budget.used_gb == 0 and budget.share(20) == 8
    with pytest.raises(ValueError):
        MemoryBudget(0)


def test_the_survey_size_message_names_the_flag(tmp_path):
    f = tmp_path / "s.csv"
    f.write_text("Tag,Species,DBH\n" + "1,Acer rubrum,10\n" * 100_000)
    code, _, err, _ = run_capped(["survey", str(f), "--max-mb", "1"])
    assert code == 2 and "--max-mb" in err and "max_bytes" not in err


def test_a_water_account_of_a_million_rows_is_refused_before_a_row_is_read(tmp_path):
    # 1,000,000 bills took 140 s to be refused (for their duplicate labels); an account holds at most 20,000
    f = tmp_path / "account.csv"
    f.write_text("kind,date,amount\n" + "bill,2026-01-01,1.00\n" * 1_000_000)
    refused(["water", "penalty", "--csv", str(f)], "1,000,001 lines, over the limit of 20,000 rows")


def test_a_hostile_grid_of_many_cells_is_refused_before_its_cells_are_made(tmp_path):
    # 4,000 rows of 3,001 values (24 MB): about 12 million cells, each a Python string while read
    f = tmp_path / "grid.csv"
    f.write_text("a,b,c,d\n" + ("1," * 3000 + "1\n") * 4000)
    refused(["excavation", "volume", "--grid", str(f)], "about 12,004,004 cells, over the limit of 10,000,000")


def test_a_species_map_that_is_a_device_is_refused(tmp_path):
    src = tmp_path / "s.csv"
    src.write_text("Tag,Species,DBH\n1,Acer rubrum,10\n")
    refused(["survey", str(src), "--species-map", "/dev/zero"], "--species-map file /dev/zero is not a regular file")


def test_the_excavation_penalties_take_the_days_of_the_flag():
    from treecalc.rules.excavation import violation_penalties

    # §120-12A first offence $500-$1,000 a day: 36,500 days (the top of --days) x $1,000 = $36,500,000
    assert violation_penalties(1, 36_500)["criminal_fine_max_total"] == 36_500_000
    with pytest.raises(ValueError, match="days must be a whole number from 1 to 36,500 days"):
        violation_penalties(1, 2**53 - 1)
