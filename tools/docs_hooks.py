"""MkDocs hooks (mkdocs.yml ``hooks:``): the pages written at build time, never by hand.

- ``law/...``: one page per chapter file of ``data/law/<village>/`` (every entry: section, the ordinance's words,
  value or dated values, unit; every bracket row) and one per village of its readings (``data/readings/``, each
  with the comment that says why, and the readings of unclear text its assessment states), read from the data
  folder treecalc reads (``TREECALC_DATA`` when set): an amended number shows on the page with no edit here.
- ``reference/cli.md``: the help of every command and subcommand, from the argparse parsers themselves.
- the nav: a docs page not named in mkdocs.yml is listed under "More", so a page another change adds is never
  left out of the site.

:func:`law_pages` and :func:`cli_page` are plain functions (tests call them without MkDocs).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import os
import re
import tomllib
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------------------------------------- the law pages


def _cell(v: Any) -> str:
    """A value as the table shows it: text in one line, a table cell's pipes escaped."""
    if isinstance(v, dt.date):
        v = v.isoformat()
    elif isinstance(v, bool):
        v = "yes" if v else "no"
    elif isinstance(v, (list, tuple)):
        v = ", ".join(_cell(x) for x in v)
    elif isinstance(v, dict):
        v = "; ".join(f"{k}: {_cell(x)}" for k, x in v.items())
    return " ".join(str(v).split()).replace("|", "\\|")


def _dated(v: Any, op: str = "") -> str:
    """A value, or the values of a dated table, each from the date it took effect (with the entry's comparison:
    "> 60", the law's "more than 60")."""
    said = f"{op} " if op else ""
    if isinstance(v, dict):
        dated = sorted(v.items(), key=lambda kv: str(kv[0]))
        return "<br>".join(f"{said}{_cell(x)} from {_cell(k)}" for k, x in dated)
    return f"{said}{_cell(v)}"


def _inline_comment(line: str) -> str:
    """The comment after a key's value on its line (a ``#`` outside the value's quotes)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote and line[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[i + 1 :].strip()
    return ""


def _comments(text: str) -> dict[str, str]:
    """The comment said of each key of a TOML file (the ``#`` lines just above it, and one after it on its
    line), by its dotted path; a table's comment under the table's path."""
    out: dict[str, str] = {}
    table: list[str] = []
    pending: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            pending.append(line.lstrip("#").strip())
            continue
        head = re.match(r"^\[\[?([^\]]+)\]\]?\s*(?:#(.*))?$", line)
        key = re.match(r"^([A-Za-z0-9_\-]+)\s*=", line)
        if head:
            table = [p.strip().strip('"') for p in head.group(1).split(".")]
            said = pending + ([head.group(2).strip()] if head.group(2) else [])
            if said:
                out[".".join(table)] = " ".join(said)
        elif key:
            after = _inline_comment(line)
            said = pending + ([after] if after else [])
            if said:
                out[".".join([*table, key.group(1)])] = " ".join(said)
        pending = []
    return out


def _walk(t: dict[str, Any], prefix: str, entries: list, brackets: list, others: list) -> None:
    from treecalc.law.schema import META_KEYS, is_bracket, is_entry

    for k, v in t.items():
        path = f"{prefix}{k}"
        if not prefix and k in META_KEYS:
            continue
        if isinstance(v, dict) and is_entry(v):
            entries.append((path, v))
        elif isinstance(v, dict) and is_bracket(v):
            brackets.append((path, v))
        elif isinstance(v, dict):
            _walk(v, f"{path}.", entries, brackets, others)
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for i, x in enumerate(v, 1):
                _walk(x, f"{path}[{i}].", entries, brackets, others)
        else:
            others.append((path, v))


def _chapter_page(title: str, relpath: str, raw: dict[str, Any], notes: dict[str, str]) -> str:
    entries: list[tuple[str, dict[str, Any]]] = []
    brackets: list[tuple[str, dict[str, Any]]] = []
    others: list[tuple[str, Any]] = []
    _walk(raw, "", entries, brackets, others)
    eff = raw.get("effective") or {}
    lines = [f"# {title}", "", f"Generated from `{relpath}` when the site was built: edit the data, not this page.", ""]
    if raw.get("name") or raw.get("chapter"):
        lines += [f"**{_cell(raw.get('name', ''))}**, {_cell(raw.get('chapter', ''))}.", ""]
    if eff:
        held = "; ".join(f"{k}: {_cell(v)}" for k, v in eff.items())
        lines += [f"In force: {held}.", ""]
    if entries:
        lines += ["## Entries", "", "| entry | section | text | value | unit |", "| --- | --- | --- | --- | --- |"]
        for path, e in entries:
            value = _dated(e["values"] if "values" in e else e["value"], e.get("operator") or "")
            row = [f"`{path}`", _cell(e.get("section", "")), _cell(e.get("text", "")), value, _cell(e.get("unit", ""))]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    for path, b in brackets:
        cols = list(b["columns"])
        lines += [f"## `{path}`", "", f"{_cell(b.get('section', ''))} {_cell(b.get('text', ''))}".strip(), ""]
        heads = ["row", "section", "text"] + [f"{c} ({_cell(b['columns'][c])})" for c in cols]
        lines += ["| " + " | ".join(heads) + " |", "|" + " --- |" * len(heads)]
        for i, row in enumerate(b["rows"], 1):
            cells = [str(i), _cell(row.get("section", "")), _cell(row.get("text", ""))]
            cells += [_dated(row[c]) if c in row else "" for c in cols]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    if others:
        lines += ["## Other values", "", "| key | value | why |", "| --- | --- | --- |"]
        for path, v in others:
            lines.append(f"| `{path}` | {_cell(v)} | {_cell(notes.get(path, ''))} |")
        lines.append("")
    return "\n".join(lines)


def _readings_said(village: str) -> list[tuple[str, str]]:
    """The readings of unclear text a village's assessment states (section, reading), quoting the law in force
    today, as ``treecalc assess --json`` lists them under ``readings``."""
    from treecalc.assessment import reading_items
    from treecalc.law import access
    from treecalc.law import registry as jurisdictions
    from treecalc.rules import rules_module

    try:
        record = jurisdictions.by_key(village)
    except (KeyError, ValueError):
        return []
    law = access.law(village)
    module = rules_module(record.key)
    whole = getattr(module, "assessment_reading_items", None)
    extra = whole(law) if callable(whole) else getattr(module, "ASSESSMENT_READING_ITEMS", ())
    return reading_items(module, record.chapter, law) + [(str(s), str(t)) for s, t in extra]


def _readings_page(title: str, relpath: str, raw: dict[str, Any], notes: dict[str, str], said: list) -> str:
    lines = [f"# {title}", "", f"Generated from `{relpath}` when the site was built: edit the data, not this page.", ""]
    leaves: list[tuple[str, Any]] = []

    def walk(t: dict[str, Any], prefix: str) -> None:
        for k, v in t.items():
            if isinstance(v, dict):
                walk(v, f"{prefix}{k}.")
            else:
                leaves.append((f"{prefix}{k}", v))

    walk(raw, "")
    lines += ["## treecalc's readings and assumed values", "", "| key | value | why |", "| --- | --- | --- |"]
    for path, v in leaves:
        why = notes.get(path) or notes.get(path.rsplit(".", 1)[0], "")
        lines.append(f"| `{path}` | {_cell(v)} | {_cell(why)} |")
    lines.append("")
    if said:
        lines += [
            "## The readings of unclear text an assessment states",
            "",
            "As `treecalc assess --json` lists them under `readings`, with the numbers of the law in force today.",
            "",
            "| section | reading |",
            "| --- | --- |",
        ]
        lines += [f"| {_cell(s)} | {_cell(t)} |" for s, t in said]
        lines.append("")
    return "\n".join(lines)


def _chapter_title(raw: dict[str, Any], text: str, stem: str) -> str:
    """A chapter's name: its ``chapter`` key, else the file's opening comment without the village (the law files
    that hold no ``name``/``chapter`` open with one), else the file's name."""
    if raw.get("chapter"):
        return str(raw["chapter"])
    first = text.splitlines()[0] if text else ""
    if first.startswith("#"):
        said = re.split(r"\s\(|\.\s|:\s", first.lstrip("# ").strip())[0].rstrip(".")
        return re.sub(r"^Village of [^,]+,\s*", "", said)
    return stem.replace("_", " ")


def _village_title(vdir: Path) -> str:
    """A village's name as its law files give it (``name``), else its folder's."""
    for f in sorted(vdir.glob("*.toml")):
        name = tomllib.loads(f.read_text(encoding="utf-8")).get("name")
        if name:
            return str(name)
    return vdir.name.replace("_", " ").title()


def _family_said(village: str) -> list[str]:
    """The law's replacement family and what of its text is not held (``treecalc jurisdictions``), for the index; []
    for a folder no law registered reads."""
    from treecalc.law import registry, towns

    if village not in registry.REGISTRY:
        return []
    row = towns.summary(village)
    out = [f"Replacement family: `{row['family']}`.", ""]
    out += [f"- Not held: {_cell(n)}" for n in row["not_held"]]
    return out + ([""] if row["not_held"] else [])


def law_pages(data_dir: Path | None = None) -> dict[str, str]:
    """Every generated law page, ``{path under docs/: Markdown}``, from ``data_dir`` (default: the data folder
    treecalc reads, ``TREECALC_DATA`` or the bundled one). The readings of unclear text are those of the law
    treecalc reads (the same folder when ``data_dir`` is left out)."""
    from treecalc.reference.datafolder import DATA_DIR

    folder = Path(data_dir or DATA_DIR)
    pages: dict[str, str] = {}
    index = ["# The law", "", f"Generated from `{folder.name}/law/` and `{folder.name}/readings/` at build time.", ""]
    villages = sorted(p for p in (folder / "law").iterdir() if p.is_dir())
    if not villages:
        raise FileNotFoundError(f"no village folder in {folder / 'law'}")
    for vdir in villages:
        village = vdir.name
        vtitle = _village_title(vdir)
        index += [f"## {vtitle}", ""] + _family_said(village)
        for f in sorted(vdir.glob("*.toml")):
            text = f.read_text(encoding="utf-8")
            raw = tomllib.loads(text)
            chapter = _chapter_title(raw, text, f.stem)
            title = f"{vtitle}: {chapter}"
            page = f"law/{village}/{f.stem}.md"
            pages[page] = _chapter_page(title, f"law/{village}/{f.name}", raw, _comments(text))
            index.append(f"- [{_cell(chapter)}]({village}/{f.stem}.md) (`law/{village}/{f.name}`)")
        rfile = folder / "readings" / f"{village}.toml"
        if rfile.is_file():
            text = rfile.read_text(encoding="utf-8")
            said = _readings_said(village) if data_dir is None else []
            page = f"law/{village}/readings.md"
            rel = f"readings/{rfile.name}"
            pages[page] = _readings_page(f"{vtitle}: readings", rel, tomllib.loads(text), _comments(text), said)
            index.append(f"- [treecalc's readings]({village}/readings.md) (`{rel}`)")
        index.append("")
    facts = folder / "readings" / "site_facts.toml"
    if facts.is_file():
        text = facts.read_text(encoding="utf-8")
        pages["law/site_facts.md"] = _readings_page(
            "Site facts assumed when not given", "readings/site_facts.toml", tomllib.loads(text), _comments(text), []
        )
        index += ["## Every village", "", "- [Site facts assumed when not given](site_facts.md)", ""]
    pages["law/index.md"] = "\n".join(index)
    return pages


# ------------------------------------------------------------------------------------- the command line page


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[list[str], argparse.ArgumentParser]]:
    """Each subcommand's parser once, with its names (the first, then its aliases)."""
    out: dict[int, tuple[list[str], argparse.ArgumentParser]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.setdefault(id(sub), ([], sub))[0].append(name)
    return list(out.values())


def cli_page() -> str:
    """The help of ``treecalc`` and of each command and subcommand, read off the parsers (80 columns)."""
    from treecalc.cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal; the page is the same on every machine
    lines = [
        "# Command line reference",
        "",
        "Generated from the argparse parsers (`treecalc.cli.build_parser`) when the site was built: each command's",
        "`--help`, as `treecalc COMMAND --help` prints it.",
        "",
    ]

    def add(prog: str, aliases: list[str], parser: argparse.ArgumentParser, level: int) -> None:
        buf = io.StringIO()
        with redirect_stdout(buf):
            parser.print_help()
        lines.extend([f"{'#' * level} `{prog}`", ""])
        if aliases:
            lines.extend(["Also: " + ", ".join(f"`{a}`" for a in aliases) + ".", ""])
        lines.extend(["```text", buf.getvalue().rstrip(), "```", ""])
        for names, sub in _subparsers(parser):
            add(f"{prog} {names[0]}", [f"{prog} {a}" for a in names[1:]], sub, min(level + 1, 4))

    add("treecalc", [], build_parser(), 2)
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------ MkDocs hooks


def _named(nav: Any) -> set[str]:
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, list):
        return set().union(*(_named(x) for x in nav)) if nav else set()
    if isinstance(nav, dict):
        return set().union(*(_named(x) for x in nav.values())) if nav else set()
    return set()


def on_config(config: Any) -> Any:
    """Add the law pages under "The law" and every docs page the nav does not name under "More"."""
    docs = Path(config["docs_dir"])
    nav = config["nav"] or []
    law = sorted(p for p in law_pages() if p != "law/index.md")
    for section in nav:
        if isinstance(section, dict) and "The law" in section:
            section["The law"] = section["The law"] + law
    named = _named(nav)
    more = sorted(
        p.relative_to(docs).as_posix()
        for p in docs.rglob("*.md")
        if p.relative_to(docs).as_posix() not in named and not p.name.startswith("_")
    )
    if more:
        nav.append({"More": more})
    config["nav"] = nav
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    generated = {**law_pages(), "reference/cli.md": cli_page()}
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    return files


_ROLE = re.compile(r":(?:class|func|mod|data|attr|meth|exc|obj):(?=<code>)")


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """The docstrings' Sphinx roles (``:func:`x```) shown as the code they name, without the role's name."""
    return _ROLE.sub("", html)
