"""The two archives a build backend writes, from the standard library alone:
a wheel (a zip with a RECORD of every file's hash, PEP 427) and an sdist (a
gzipped tar under NAME-VERSION/, PEP 517).

Entries carry one timestamp, SOURCE_DATE_EPOCH's where it is set, and no
owner, so the same tree gives the same bytes.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import os
import tarfile
import time
import zipfile
from pathlib import Path


def _epoch() -> int:
    # 1980-01-01, the earliest time a zip entry can carry
    return max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)


def _record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


class Wheel:
    """A wheel being written: add files, then close() writes RECORD."""

    def __init__(self, path: Path, dist_info: str) -> None:
        self.path = path
        self.dist_info = dist_info
        self._zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self._records: list[str] = []
        self._time = time.gmtime(_epoch())[:6]

    def add(self, name: str, data: bytes, executable: bool = False) -> None:
        info = zipfile.ZipInfo(name, date_time=self._time)
        info.external_attr = (0o100755 if executable else 0o100644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self._zip.writestr(info, data)
        self._records.append(f"{name},{_record_hash(data)},{len(data)}")

    def add_file(self, name: str, path: Path) -> None:
        """A file's content (a link's target) under name, executable if it is."""
        self.add(name, path.read_bytes(), executable=os.access(path, os.X_OK))

    def close(self) -> None:
        record = f"{self.dist_info}/RECORD"
        lines = self._records + [f"{record},,"]
        info = zipfile.ZipInfo(record, date_time=self._time)
        info.external_attr = 0o100644 << 16
        self._zip.writestr(info, "\n".join(lines) + "\n", zipfile.ZIP_DEFLATED)
        self._zip.close()


class Sdist:
    """A source distribution being written: everything under its top folder."""

    def __init__(self, path: Path, top: str) -> None:
        self.top = top
        self._file = open(path, "wb")
        self._gzip = gzip.GzipFile(fileobj=self._file, mode="wb", mtime=_epoch(), filename="")
        self._tar = tarfile.open(fileobj=self._gzip, mode="w", format=tarfile.PAX_FORMAT)

    def add(self, name: str, data: bytes, executable: bool = False) -> None:
        info = tarfile.TarInfo(f"{self.top}/{name}")
        info.size = len(data)
        info.mode = 0o755 if executable else 0o644
        info.mtime = _epoch()
        self._tar.addfile(info, io.BytesIO(data))

    def add_file(self, name: str, path: Path) -> None:
        self.add(name, path.read_bytes(), executable=os.access(path, os.X_OK))

    def close(self) -> None:
        self._tar.close()
        self._gzip.close()
        self._file.close()
