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
    write('kineto-grid-1e300.json', HEAD + kernel(grid='[1e300, 1, 1]') + ']}\n')
    # an escape sends the event to yajl, whose message ends with a newline
    write('kineto-yajl-error.json', HEAD + kernel('a\\"b').replace('"dur": 10', '"dur": 10 11')
          + ']}\n')
    small = HEAD + kernel() + ']}\n'
    write('kineto-gzip-no-trailer.json.gz', gzip.compress(small.encode(), 9, mtime=0)[:-8])
    large = HEAD + filler(200000) + ',\n' + kernel() + ']}\n'
    write('kineto-gzip-cut-large.json.gz',
          gzip.compress(large.encode(), 9, mtime=0)[:-20])
    devices = ', '.join('{"id": %d, "name": "NVIDIA H200", "computeMajor": 9, "computeMinor": 0, '
                        '"numSms": 132}' % i for i in range(300))
    write('kineto-300-devices.json',
          '{"deviceProperties": [' + devices + '], "traceEvents": [' + kernel() + ']}\n')
    write('kineto-name-nul.json', HEAD + kernel('a\\u0000b') + ',\n' + kernel('a\\u0000c')
          + ']}\n')


CSV_HEAD = ('Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),'
            'DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,'
            'Name\n')


def row(grid='1056,1,1', regs='64', stc='0.016384', dyn='0.000', device='NVIDIA H200 (0)',
        name='"void add<float, 2>(float*)"'):
    return '100,2000,5,%s,256,1,1,%s,%s,%s,,,,,%s,1,,7,%s\n' % (grid, regs, stc, dyn, device, name)


def csv():
    write('nsys-grid-neg-5e9.csv', CSV_HEAD + row(grid='-5000000000,1,1'))
    write('nsys-regs-1e9.csv', CSV_HEAD + row(regs='1000000000'))
    write('nsys-smem-5000mb.csv', CSV_HEAD + row(stc='5000'))
    write('nsys-grid-hex.csv', CSV_HEAD + row(grid='0x10,1,1'))
    write('nsys-device-id-20-digits.csv', CSV_HEAD + row(device='NVIDIA H200 (99999999999999999999)'))
    write('nsys-nul.csv', CSV_HEAD + row(grid='10\x0056,1,1'))
    write('nsys-open-quote.csv', CSV_HEAD + row(name='"never closed') + row())
    write('nsys-bare-cr.csv', (CSV_HEAD + row() + row()).replace('\n', '\r'))
    write('nsys-70-fields.csv', ','.join('c%d' % i for i in range(66)) + ',' + CSV_HEAD + row())
    rows = ''.join(row(name='k%d' % i) for i in range(2000))
    write('nsys-gzip-cut-large.csv.gz',
          gzip.compress((CSV_HEAD + rows).encode(), 9, mtime=0)[:-20])
    write('nsys-newline-in-number.csv', CSV_HEAD + row(dyn='"0.000\n1"'))
    write('nsys-line-numbers.csv', CSV_HEAD + row(name='"two\nlines"') + row(regs='300'))
    write('nsys-name-20000.csv', CSV_HEAD + row(name='n' * 20000) + row(name='n' * 19000))


def records():
    head = '# occ-trace 1\nD\t0\tNVIDIA H200\t132\t9\t0\n'

    def k(cluster='0\t0\t0', name='_Z3addPf', grid='1056'):
        return ('K\t0\t1\t7\t2\t4000\t5000\t%s\t1\t1\t256\t1\t1\t64\t16384\t0\t0\t233472\t0\t-1'
                '\t%s\t0\t0\t0\t0\t%s\n' % (grid, cluster, name))
    end = 'E\t1\t0\n'
    write('records-cluster-65536.tsv', head + k(cluster='65536\t65536\t1') + end)
    write('records-nul.tsv', head + k(name='a\0b') + end)
    write('records-nul-end.tsv', head + k() + 'E\0garbage')
    write('records-device-field.tsv', '# occ-trace 1\nD\t-1\tNVIDIA H200\t132\t9\t0\n' + end)
    return head + k() + k(cluster='2\t1\t1', name='_Z4convPf', grid='2') + end


def sqlite_files(occ, records_text):
    tmp = tempfile.mkdtemp()
    src = os.path.join(tmp, 'r.tsv')
    base = os.path.join(tmp, 'base.sqlite')
    with open(src, 'w') as f:
        f.write(records_text)
    subprocess.run([occ, 'lab', 'trace', '--convert', src, '--output', base], check=True,
                   stderr=subprocess.DEVNULL)
    k = 'CUPTI_ACTIVITY_KIND_KERNEL'
    plain = (f'CREATE TABLE t AS SELECT * FROM {k}; DROP TABLE {k}; '
             f'CREATE TABLE {k} AS SELECT * FROM t; DROP TABLE t; ')  # no NOT NULL

    def edit(name, sql):
        out = os.path.join(HERE, name)
        if os.path.exists(out):
            os.remove(out)
        c = sqlite3.connect(base)
        c.execute('VACUUM INTO ?', (out,))
        c.close()
        c = sqlite3.connect(out)
        c.executescript(sql)
        c.commit()
        c.executescript('PRAGMA page_size = 512; VACUUM')
        c.close()

    edit('sqlite-cluster-65536.sqlite',
         f'UPDATE {k} SET clusterX = 65536, clusterY = 65536, clusterZ = 1 WHERE rowid = 1')
    edit('sqlite-dangling-name.sqlite', f'UPDATE {k} SET demangledName = 999999 WHERE rowid = 2')
    edit('sqlite-null-name.sqlite', plain + f'UPDATE {k} SET demangledName = NULL WHERE rowid = 2')
    edit('sqlite-kernel-view.sqlite',
         f'ALTER TABLE {k} RENAME TO k2; CREATE VIEW {k} AS SELECT * FROM k2')
    edit('sqlite-gpu-id-text.sqlite', "UPDATE TARGET_INFO_GPU SET id = 'abc'")
    edit('sqlite-gpu-cc-1000.sqlite', 'UPDATE TARGET_INFO_GPU SET computeMajor = 1000')
    edit('sqlite-ids-without-stringids.sqlite', 'DROP TABLE StringIds')
    # readable: a database in WAL mode, read without leaving -wal or -shm files
    edit('sqlite-wal-mode.sqlite', 'PRAGMA journal_mode = WAL')
    cut = os.path.join(HERE, 'sqlite-cut.sqlite')
    with open(os.path.join(HERE, 'sqlite-dangling-name.sqlite'), 'rb') as f:
        data = f.read()
    with open(cut, 'wb') as f:
        f.write(data[:len(data) // 2])
    shutil.rmtree(tmp)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    kineto()
    csv()
    text = records()
    sqlite_files(os.path.join(sys.argv[1], 'occ'), text)


if __name__ == '__main__':
    main()
