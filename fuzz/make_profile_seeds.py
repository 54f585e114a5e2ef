#!/usr/bin/env python3
"""Writes the seed corpora of the libocc-profile fuzz targets (fuzz/corpus/kineto, nsys_csv,
cupti, nsys_sqlite) from the H200 traces of tests/data/profile-h200, cut small (each seed
under the 8 KB, or 64 KB for databases, that fuzz/run.sh lets libFuzzer grow inputs to).

usage: python3 fuzz/make_profile_seeds.py BUILD_DIR     (BUILD_DIR/occ writes the databases:
       `occ lab trace --convert`, which is occ_profile_convert_cupti)

Python 3 standard library only. The output is the same byte for byte (gzip without a time
stamp), except the SQLite files, which hold no time but are SQLite's to lay out.
"""
import gzip
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'tests', 'data', 'profile-h200')
CORPUS = os.path.join(HERE, 'corpus')


def write(target, name, data, gz=False):
    if isinstance(data, str):
        data = data.encode()
    if gz:
        data = gzip.compress(data, 9, mtime=0)
    with open(os.path.join(CORPUS, target, name), 'wb') as f:
        f.write(data)


def kineto_seeds():
    with gzip.open(os.path.join(DATA, 'kineto-gemm.json.gz'), 'rt') as f:
        trace = json.load(f)
    events = trace['traceEvents']
    kernels = [e for e in events if e.get('cat') == 'kernel']
    picked, seen = [], set()
    for e in events:  # the first of each kind, the first three distinct kernels
        kind = (e.get('ph'), e.get('cat'))
        if kind == ('X', 'kernel'):
            continue
        if kind not in seen:
            seen.add(kind)
            picked.append(e)
    names = []
    for k in kernels:
        if k['name'] not in names and len(names) < 3:
            names.append(k['name'])
            picked.append(k)
    picked.sort(key=lambda e: e.get('ts', 0))
    for e in picked:  # long template names cut: the seed stays small
        if len(e.get('name', '')) > 120:
            e['name'] = e['name'][:120]
        if 'args' in e and len(json.dumps(e['args'])) > 400:
            e['args'] = {k: v for k, v in e['args'].items() if len(json.dumps(v)) < 60}
    head = {k: trace[k] for k in ('schemaVersion', 'deviceProperties', 'displayTimeUnit')}
    text = json.dumps(head, indent=2)[:-2] + ',\n  "traceEvents": [\n'
    text += ',\n'.join('  ' + json.dumps(e) for e in picked) + '\n  ],\n  "traceName": "gemm"\n}\n'
    write('kineto', 'gemm.json', text)
    write('kineto', 'gemm.json.gz', text, gz=True)
    bare = '[\n' + ',\n'.join(json.dumps(e) for e in picked if e.get('cat') == 'kernel') + '\n]\n'
    write('kineto', 'bare_array.json', bare)
    k = dict(kernels[0])
    k['name'] = 'void k<\\"q\\">\u00e9'
    two = {'deviceProperties': trace['deviceProperties'] + [
        {'id': 1, 'name': 'NVIDIA A100-SXM4-80GB', 'computeMajor': 8, 'computeMinor': 0,
         'numSms': 108}],
        'traceEvents': [k, dict(kernels[1], args=dict(kernels[1]['args'], device=1))]}
    write('kineto', 'escapes_two_devices.json', json.dumps(two, ensure_ascii=True))


CSV_HEAD = ('Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),'
            'DymSMem (MB),Bytes (MB),Throughput (MBps),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,'
            'Name\n')


def csv_seeds():
    rows = [
        '100,2000,5,1056,1,1,256,1,1,64,0.016384,0.000,,,,,NVIDIA H200 (0),1,,7,'
        '"void add<float, 2>(float*)"\n',
        '200,500,6,,,,,,,,,,4.194,8000,Pageable,Device,NVIDIA H200 (0),1,,7,[CUDA memcpy HtoD]\n',
        '300,175712,15,2,66,1,384,1,1,168,0.000,0.213,,,,,NVIDIA H200 (0),1,,7,'
        'nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT\n',
        '400,1000,7,1056,1,1,256,1,1,64,0.016384,0.000,,,,,NVIDIA H200 (1),1,,7,'
        '"a ""quoted"", name\nover two lines"\n',
    ]
    text = CSV_HEAD + ''.join(rows)
    write('nsys_csv', 'gpu_trace.csv', text)
    write('nsys_csv', 'gpu_trace.csv.gz', text, gz=True)
    write('nsys_csv', 'crlf.csv', text.replace('\n', '\r\n'))
    units = CSV_HEAD.replace('Duration (ns)', 'Duration (us)').replace('(MB)', '(KiB)')
    write('nsys_csv', 'units.csv', units + rows[0].replace('0.016384', '16'))
    write('nsys_csv', 'header_only.csv', CSV_HEAD)


def records_cut(lines=6):
    with gzip.open(os.path.join(DATA, 'cupti-gemm.tsv.gz'), 'rt') as f:
        all_lines = f.read().split('\n')
    head = [l for l in all_lines if l.startswith('#') or l.startswith('D\t')]
    kernels, names = [], set()
    for l in all_lines:
        if l.startswith('K\t'):
            name = l.split('\t')[-1]
            if name not in names or len(kernels) < 2:
                names.add(name)
                kernels.append(l)
        if len(kernels) == lines:
            break
    end = [l for l in all_lines if l.startswith('E\t')]
    return '\n'.join(head + kernels + end) + '\n'


RECORDS_TEST = (
    '# occ-trace 1\n'
    'D\t0\tNVIDIA H200\t132\t9\t0\n'
    'D\t1\tNVIDIA A100-SXM4-80GB\t108\t8\t0\n'
    'K\t0\t1\t7\t1\t1000\t3000\t2\t66\t1\t384\t1\t1\t168\t0\t213188\t0\t233472\t1\t-1\t2\t1\t1\t1'
    '\t0\t0\t16\tnvjet_sm90_tst_256x128\n'
    'K\t1\t1\t7\t2\t4000\t5000\t1056\t1\t1\t256\t1\t1\t64\t16384\t0\t0\t167936\t0\t-1\t0\t0\t0\t0'
    '\t0\t0\t0\t_Z3addPf\n'
    'K\t0\t1\t7\t3\t6000\t6500\t1\t1\t1\t128\t1\t1\t16\t0\t61440\t0\t233472\t0\t100\t0\t0\t0\t0\t0'
    '\t0\t0\t_Z4convIfEvPT_i\n'
    'E\t3\t0\n')


def cupti_seeds():
    gemm = records_cut()
    write('cupti', 'gemm.tsv', gemm)
    write('cupti', 'gemm.tsv.gz', gemm, gz=True)
    write('cupti', 'clusters_carveout.tsv', RECORDS_TEST)


def sqlite_seeds(occ):
    tmp = tempfile.mkdtemp()
    made = []

    def convert(name, records):
        src = os.path.join(tmp, name + '.tsv')
        with open(src, 'w') as f:
            f.write(records)
        db = os.path.join(CORPUS, 'nsys_sqlite', name + '.sqlite')
        if os.path.exists(db):
            os.remove(db)
        subprocess.run([occ, 'lab', 'trace', '--convert', src, '--output', db], check=True,
                       stderr=subprocess.DEVNULL)
        made.append(db)
        return db

    def edit(db, name, *sql):
        out = os.path.join(CORPUS, 'nsys_sqlite', name + '.sqlite')
        if os.path.exists(out):
            os.remove(out)
        c = sqlite3.connect(db)
        c.execute('VACUUM INTO ?', (out,))
        c.close()
        c = sqlite3.connect(out)
        for s in sql:
            c.executescript(s)
        c.commit()
        c.close()
        made.append(out)

    k = 'CUPTI_ACTIVITY_KIND_KERNEL'
    gemm = convert('gemm', records_cut(4))
    test = convert('clusters_carveout', RECORDS_TEST)
    edit(gemm, 'no_gpu_table', 'DROP TABLE TARGET_INFO_GPU')
    edit(gemm, 'old_schema', f'ALTER TABLE {k} DROP COLUMN clusterX',
         f'ALTER TABLE {k} DROP COLUMN clusterY', f'ALTER TABLE {k} DROP COLUMN clusterZ',
         f'ALTER TABLE {k} DROP COLUMN sharedMemoryExecuted',
         f'ALTER TABLE {k} DROP COLUMN sharedMemoryCarveoutRequested',
         f'ALTER TABLE {k} DROP COLUMN mangledName')
    edit(test, 'text_names', f'CREATE TABLE t AS SELECT * FROM {k}', f'DROP TABLE {k}',
         f'CREATE TABLE {k} AS SELECT * FROM t', 'DROP TABLE t',
         f'UPDATE {k} SET demangledName = (SELECT value FROM StringIds WHERE id = demangledName)',
         'DROP TABLE StringIds')
    edit(test, 'short_names_only', f'ALTER TABLE {k} DROP COLUMN demangledName')
    edit(gemm, 'bad_text_gridx', f"UPDATE {k} SET gridX = 'abc' WHERE rowid = 2")
    edit(gemm, 'bad_no_registers', f'ALTER TABLE {k} DROP COLUMN registersPerThread')
    # small pages: a database of a few KB
    for db in made:
        c = sqlite3.connect(db)
        c.executescript('PRAGMA page_size = 512; VACUUM')
        c.close()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    kineto_seeds()
    csv_seeds()
    cupti_seeds()
    sqlite_seeds(os.path.join(sys.argv[1], 'occ'))


if __name__ == '__main__':
    main()
