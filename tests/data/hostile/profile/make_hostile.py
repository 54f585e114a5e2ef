#!/usr/bin/env python3
"""Makes the hostile traces of tests/data/hostile/profile/ (README.md there says what each is
and what occ says). Python 3 standard library only; gzip without a time stamp, so the output
is the same byte for byte. The SQLite files start from a database written by `occ lab trace
--convert` (occ_profile_convert_cupti) and are edited with Python's sqlite3.

usage: python3 tests/data/hostile/profile/make_hostile.py BUILD_DIR   (BUILD_DIR/occ)
"""
import gzip
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MB = 1 << 20


def write(name, data, gz=False):
    if isinstance(data, str):
        data = data.encode('utf-8', 'surrogatepass')
    if gz:
        data = gzip.compress(data, 9, mtime=0)
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(data)


HEAD = ('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H200", '
        '"computeMajor": 9, "computeMinor": 0, "numSms": 132}],\n"traceEvents": [\n')


def kernel(name='k', dur='10', grid='[1056, 1, 1]', block='[256, 1, 1]', regs='64',
           smem='16384', device='0', pad=''):
    return ('{"ph": "X", "cat": "kernel", "name": "%s", "dur": %s, "args": {"device": %s, '
            '"registers per thread": %s, "shared memory": %s, "grid": %s, "block": %s, '
            '"est. achieved occupancy %%": 50, "pad": "%s"}}'
            % (name, dur, device, regs, smem, grid, block, pad))


def filler(length):
    """A CPU event of exactly `length` bytes."""
    shell = '{"ph": "X", "cat": "cpu_op", "name": "pad", "args": {"s": ""}}'
    return shell.replace('"s": ""', '"s": "%s"' % ('p' * (length - len(shell))))


def kineto():
    # A kernel event across the scanner's first refill (its buffer holds 1 MB): the scan
    # kept the event's start from before the refill, which then pointed elsewhere.
    text = HEAD
    text += filler(MB - 100 - len(text) - 2) + ',\n'
    text += kernel('across_the_refill', pad='q' * 400) + ',\n'
    text += filler(MB + MB // 2) + ',\n'
    text += kernel('after') + '\n]}\n'
    write('kineto-refill-boundary.json.gz', text, gz=True)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    kineto()


if __name__ == '__main__':
    main()
