"""pyproject.toml's [project] table, read without a TOML package, and the
core metadata (METADATA, PKG-INFO) it gives.

The backend has no build requirements, so on Python 3.9 and 3.10, which
have no tomllib, nothing could read TOML for it; and one reader on every
Python beats two that may disagree. This reads the part of TOML the file
uses: [tables] with dotted names, bare or quoted keys, basic and literal
strings, integers, booleans, arrays (over several lines) and inline tables,
comments. Anything else is refused with its line rather than misread.
python/tests/test_build_backend.py holds it to tomllib on the file.
"""

from __future__ import annotations

import re
from pathlib import Path

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_INTEGER = re.compile(r"[+-]?[0-9][0-9_]*")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class TomlError(ValueError):
    """A construct outside the subset, or broken TOML, with file and line."""


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.pos = 0

    def fail(self, what: str) -> TomlError:
        line = self.text.count("\n", 0, self.pos) + 1
        return TomlError(f"{self.source}:{line}: {what}")

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def skip_spaces(self) -> None:
        while self.peek() in (" ", "\t"):
            self.pos += 1

    def skip_comment(self) -> None:
        if self.peek() == "#":
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end

    def skip_blank(self) -> None:
        """Spaces, comments and line ends (between array items, between lines)."""
        while True:
            self.skip_spaces()
            self.skip_comment()
            if self.peek() == "\n":
                self.pos += 1
            elif self.peek(2) == "\r\n":
                self.pos += 2
            else:
                return

    def end_of_line(self) -> None:
        self.skip_spaces()
        self.skip_comment()
        if self.pos < len(self.text) and self.peek() not in ("\n", "\r"):
            raise self.fail(f"unexpected {self.peek()!r} after a value")

    def key(self) -> str:
        if self.peek() in ('"', "'"):
            return self.string()
        m = _BARE_KEY.match(self.text, self.pos)
        if m is None:
            raise self.fail(f"a key was expected, not {self.peek()!r}")
        self.pos = m.end()
        return m.group(0)

    def dotted_key(self) -> list[str]:
        parts = [self.key()]
        self.skip_spaces()
        while self.peek() == ".":
            self.pos += 1
            self.skip_spaces()
            parts.append(self.key())
            self.skip_spaces()
        return parts

    def string(self) -> str:
        quote = self.peek()
        if self.peek(3) == quote * 3:
            raise self.fail("multi-line strings are not read here")
        self.pos += 1
        out = []
        while True:
            c = self.peek()
            if c in ("", "\n"):
                raise self.fail("a string is not closed on its line")
            self.pos += 1
            if c == quote:
                return "".join(out)
            if c == "\\" and quote == '"':
                e = self.peek()
                self.pos += 1
                if e in _ESCAPES:
                    out.append(_ESCAPES[e])
                elif e in ("u", "U"):
                    digits = 4 if e == "u" else 8
                    code = self.text[self.pos:self.pos + digits]
                    if not re.fullmatch(r"[0-9A-Fa-f]+", code) or len(code) != digits:
                        raise self.fail(f"a bad \\{e} escape")
                    out.append(chr(int(code, 16)))
                    self.pos += digits
                else:
                    raise self.fail(f"an unknown escape \\{e}")
            else:
                out.append(c)

    def value(self):
        c = self.peek()
        if c in ('"', "'"):
            return self.string()
        if c == "[":
            self.pos += 1
            items = []
            while True:
                self.skip_blank()
                if self.peek() == "]":
                    self.pos += 1
                    return items
                items.append(self.value())
                self.skip_blank()
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != "]":
                    raise self.fail("',' or ']' was expected in an array")
        if c == "{":
            self.pos += 1
            table: dict = {}
            self.skip_spaces()
            if self.peek() == "}":
                self.pos += 1
                return table
            while True:
                self.skip_spaces()
                self.assign(table)
                self.skip_spaces()
                if self.peek() == "}":
                    self.pos += 1
                    return table
                if self.peek() != ",":
                    raise self.fail("',' or '}' was expected in an inline table")
                self.pos += 1
        for word, meaning in (("true", True), ("false", False)):
            if self.text.startswith(word, self.pos):
                self.pos += len(word)
                return meaning
        m = _INTEGER.match(self.text, self.pos)
        if m is not None and not re.match(r"[.eE:T-]", self.text[m.end():m.end() + 1] or " "):
            self.pos = m.end()
            return int(m.group(0).replace("_", ""))
        raise self.fail(f"a value of a kind not read here: {self.text[self.pos:self.pos + 20]!r}")

    def assign(self, table: dict) -> None:
        """key = value into table (a dotted key makes the tables between)."""
        path = self.dotted_key()
        if self.peek() != "=":
            raise self.fail("'=' was expected after a key")
        self.pos += 1
        self.skip_spaces()
        value = self.value()
        for name in path[:-1]:
            table = table.setdefault(name, {})
            if not isinstance(table, dict):
                raise self.fail(f"'{name}' is not a table")
        if path[-1] in table:
            raise self.fail(f"'{'.'.join(path)}' is given twice")
        table[path[-1]] = value

    def document(self) -> dict:
        root: dict = {}
        table = root
        while True:
            self.skip_blank()
            if self.pos >= len(self.text):
                return root
            if self.peek() == "[":
                if self.peek(2) == "[[":
                    raise self.fail("arrays of tables are not read here")
                self.pos += 1
                self.skip_spaces()
                path = self.dotted_key()
                if self.peek() != "]":
                    raise self.fail("']' was expected after a table's name")
                self.pos += 1
                table = root
                for name in path:
                    table = table.setdefault(name, {})
                    if not isinstance(table, dict):
                        raise self.fail(f"'{name}' is not a table")
            else:
                self.assign(table)
            self.end_of_line()


def loads(text: str, source: str = "pyproject.toml") -> dict:
    """The document as tomllib.loads gives it, for the subset above."""
    return _Reader(text, source).document()


def load(path: Path) -> dict:
    return loads(path.read_text(encoding="utf-8"), str(path))


# The [project] keys this backend writes into the metadata; any other is
# refused, so that nothing the file says is silently left out of the wheel.
PROJECT_KEYS = {"name", "version", "dynamic", "description", "readme", "requires-python",
                "license", "dependencies", "optional-dependencies", "classifiers", "keywords",
                "urls"}


def normalized_name(name: str) -> str:
    """The name as wheel and sdist file names spell it (PEP 427, PEP 625)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _with_extra(requirement: str, extra: str) -> str:
    name, _, marker = requirement.partition(";")
    condition = f'extra == "{extra}"'
    if marker.strip():
        condition = f"({marker.strip()}) and {condition}"
    return f"{name.strip()}; {condition}"


def core_metadata(project: dict, version: str, package_dir: Path) -> str:
    """METADATA (and PKG-INFO): core metadata 2.1 from [project]."""
    unknown = sorted(set(project) - PROJECT_KEYS)
    if unknown:
        raise SystemExit(f"occ: pyproject.toml: [project] keys {unknown} are not written into "
                         "the metadata by python/build_backend: add them there")
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {version}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    if project.get("keywords"):
        lines.append("Keywords: " + ",".join(project["keywords"]))
    for label, url in project.get("urls", {}).items():
        lines.append(f"Project-URL: {label}, {url}")
    license_ = project.get("license", {})
    if "file" in license_:
        raise SystemExit("occ: pyproject.toml: license = { file = ... } is not written into the "
                         "metadata by python/build_backend: give the text")
    if "text" in license_:
        lines.append("License: " + license_["text"].replace("\n", "\n        "))
    for classifier in project.get("classifiers", []):
        lines.append(f"Classifier: {classifier}")
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    for requirement in project.get("dependencies", []):
        lines.append(f"Requires-Dist: {requirement}")
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines.extend(f"Requires-Dist: {_with_extra(r, extra)}" for r in requirements)
    readme = project.get("readme")
    body = ""
    if readme is not None:
        file = readme if isinstance(readme, str) else readme["file"]
        content_type = ("text/markdown" if file.endswith(".md") else "text/plain")
        if isinstance(readme, dict):
            content_type = readme.get("content-type", content_type)
        lines.append(f"Description-Content-Type: {content_type}")
        body = (package_dir / file).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n\n" + body
