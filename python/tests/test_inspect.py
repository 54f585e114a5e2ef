"""occ.inspect's rows equal ``occ inspect --csv``'s: on the checked-in ptxas
log of the H200 probe kernels, and on the nvcc-built test binaries of
tests/inspect/ where this build has them."""

from __future__ import annotations

import json

import pytest

import occ
from conftest import ROOT, cli_csv, inspect_fixtures, run_cli

PROBE_LOG = ROOT / "tests" / "data" / "h200-driver" / "h200-probe-ptxas.txt"


def csv_of(k: occ.InspectKernel) -> dict:
    """One kernel as inspect_csv.c writes its row."""
    def num(v):
        return "" if v is None else str(v)

    def dims(d):
        return "" if d is None else "x".join(map(str, d))

    return {
        "arch": k.arch, "name": k.name, "regs": num(k.regs), "smem": num(k.smem),
        "stack": num(k.stack), "frame": num(k.frame),
        "spill_store_bytes": num(k.spill_store_bytes),
        "spill_load_bytes": num(k.spill_load_bytes),
        "spill_instructions": num(k.spill_instructions), "barriers": num(k.barriers),
        "max_threads": dims(k.max_threads), "req_threads": dims(k.req_threads),
        "max_regs": num(k.max_regs), "cluster_dims": dims(k.cluster_dims),
        "param_bytes": num(k.param_bytes), "kind": k.kind, "count": str(k.count),
        "gpu": k.gpu or "", "threads": num(k.threads), "blocks_per_sm": num(k.blocks_per_sm),
        "warps_per_sm": num(k.warps_per_sm),
        "occupancy": "" if k.occupancy is None else f"{k.occupancy:.4f}",
        "cluster": num(k.cluster), "max_active_clusters": num(k.max_active_clusters),
        "limiter": k.limiter, "mangled": k.mangled,
    }


def same_rows(kernels: list[occ.InspectKernel], rows: list[dict], some: bool = True) -> None:
    assert len(kernels) == len(rows)
    assert rows or not some, "no rows to compare"
    for k, row in zip(kernels, rows):
        mine = csv_of(k)
        assert list(mine) == [key for key in row if key in mine]  # the CSV's order
        assert mine == {key: row.get(key) for key in mine}, k.mangled


OPTIONS = [
    ({}, []),
    ({"gpu": "H200", "threads": 256}, ["--gpu", "H200", "--threads", "256"]),
    ({"gpu": "A100", "dyn_smem": 4096, "sort": "regs"},
     ["--gpu", "A100", "--dyn-smem", "4096", "--sort", "regs"]),
    ({"sort": "name", "demangle": False}, ["--sort", "name", "--mangled"]),
    ({"filter": "^void regk", "sort": "smem"}, ["--filter", "^void regk", "--sort", "smem"]),
]


@pytest.mark.parametrize("k,args", OPTIONS)
def test_ptxas_log_rows_equal_cli_csv(k, args):
    rows = cli_csv(["inspect", "--csv", *args, str(PROBE_LOG)])
    same_rows(occ.inspect(PROBE_LOG, **k), rows)


def test_bytes_in_memory_read_as_the_file():
    data = PROBE_LOG.read_bytes()
    from_file = occ.inspect(str(PROBE_LOG), gpu="H200")
    from_bytes = occ.inspect(data, gpu="H200")
    assert [csv_of(k) for k in from_bytes] == [csv_of(k) for k in from_file]
    assert from_bytes[0].file == "<bytes>"
    named = occ.inspect(("probe.log", data))
    assert named[0].file == "probe.log"


FIXTURE_FILES = ["all.fatbin", "speed.fatbin", "sm90a.cubin", "sm75.cubin", "rdc.cubin", "app",
                 "libextra.so"]


@pytest.mark.parametrize("name", FIXTURE_FILES)
def test_binaries_rows_equal_cli_csv(name):
    fixtures = inspect_fixtures()
    if fixtures is None:
        pytest.skip("no nvcc: the build has no tests/inspect fixtures")
    path = fixtures / name
    for k, args in ((dict(functions=True), ["--functions"]),
                    (dict(gpu="H200", arch="sm_90"), ["--gpu", "H200", "--arch", "sm_90"]),
                    (dict(relfatbin=True, threads=128), ["--all", "--threads", "128"])):
        proc = run_cli(["inspect", "--csv", *args, str(path)], check=False)
        if proc.returncode != 0:  # an arch filter that leaves nothing, say
            with pytest.raises(occ.OccError):
                occ.inspect(path, **k)
            continue
        # --arch sm_90 leaves nothing of an sm_75 cubin: equal, and empty
        same_rows(occ.inspect(path, **k), cli_csv(["inspect", "--csv", *args, str(path)]),
                  some="arch" not in k)


def test_errors_carry_the_readers_message(tmp_path):
    missing = tmp_path / "missing.cubin"
    proc = run_cli(["inspect", str(missing)], check=False)
    with pytest.raises(occ.OccError) as e:
        occ.inspect(missing)
    assert f"occ inspect: {e.value}" in proc.stderr
    assert e.value.status == "I/O error" or e.value.code == 7
    damaged = tmp_path / "damaged.cubin"
    damaged.write_bytes(b"\x7fELF\x02\x01\x01" + b"\0" * 9 + b"\x01\x00\xbe\x00" + b"\0" * 20)
    proc = run_cli(["inspect", str(damaged)], check=False)
    assert proc.returncode == 1
    with pytest.raises(occ.OccError) as e:
        occ.inspect(damaged)
    assert f"occ inspect: {e.value}" in proc.stderr
    for bad in (dict(arch="sm90"), dict(sort="size"), dict(filter="(")):
        with pytest.raises(occ.OccError):
            occ.inspect(PROBE_LOG, **bad)
    with pytest.raises(occ.OccError):
        occ.inspect([])


def _baseline_row(mangled, max_threads="null", req_threads="null", cluster="null"):
    return ('{"mangled":"%s","arch":"sm_90","kind":"kernel","relocatable":false,'
            '"from_log":false,"count":1,"regs":16,"smem_bytes":0,"smem_section_bytes":0,'
            '"stack_bytes":0,"frame_bytes":0,"spill_store_bytes":null,"spill_load_bytes":null,'
            '"spill_instructions":0,"barriers":0,"max_threads":%s,"req_threads":%s,'
            '"max_regs":null,"cluster_dims":%s,"explicit_cluster":false,'
            '"max_cluster_rank":null,"param_bytes":8}' % (mangled, max_threads, req_threads,
                                                         cluster))


def test_launch_fails_named(tmp_path):
    """A launch the kernel refuses says why (launch_fails), as the CLI's flags do."""
    rows = [_baseline_row("_Z7bounded", max_threads="[128,1,1]"),
            _baseline_row("_Z7reqntid", req_threads="[64,1,1]"),
            _baseline_row("_Z9cluster17", cluster="[17,1,1]"), _baseline_row("_Z5plain")]
    path = tmp_path / "b.json"
    path.write_text('{"schema":"occ.baseline","version":1,"occ_version":"0.1.0","inputs":[{"file":'
                    '"k.cubin","format":"cubin"}],"options":{"arch":null,"functions":false,'
                    '"all":false,"filter":null},"function_count":4,"functions":[\n'
                    + ",\n".join(rows) + "\n]}\n")
    got = {k.mangled: k.launch_fails for k in occ.inspect(path, gpu="H200", threads=256)}
    assert got == {"_Z7bounded": ("launch_bounds",), "_Z7reqntid": ("reqntid",),
                   "_Z9cluster17": ("cluster_dims",), "_Z5plain": ()}
    at_pick = {k.mangled: k.launch_fails for k in occ.inspect(path, gpu="H200")}
    assert at_pick["_Z7bounded"] == () and at_pick["_Z7reqntid"] == ()
    assert at_pick["_Z9cluster17"] == ("cluster_dims",)  # whatever the block size


def test_launches_from_a_profile(tmp_path):
    """inspect(launches=) gives each kernel its recorded launches, as
    ``occ inspect --launches`` does: the same rows, block dims and shared memory."""
    rows = [_baseline_row("_Z5scalePfi"), _baseline_row("_Z3addPf")]
    base = tmp_path / "b.json"
    base.write_text('{"schema":"occ.baseline","version":1,"occ_version":"0.1.0","inputs":[{"file":'
                    '"k.cubin","format":"cubin"}],"options":{"arch":null,"functions":false,'
                    '"all":false,"filter":null},"function_count":2,"functions":[\n'
                    + ",\n".join(rows) + "\n]}\n")
    trace = tmp_path / "t.json"
    event = ('{"ph": "X", "cat": "kernel", "name": "%s", "dur": %d, "args": {"registers per '
             'thread": 16, "shared memory": %d, "grid": [10, 1, 1], "block": %s}}')
    trace.write_text('{"deviceProperties": [{"id": 0, "name": "NVIDIA H200", "computeMajor": 9, '
                     '"computeMinor": 0, "numSms": 132}], "traceEvents": ['
                     + ",".join([event % ("scale(float*,int)", 30, 8192, "[16, 16, 1]"),
                                 event % ("scale(float*, int)", 10, 0, "[64, 1, 1]"),
                                 event % ("triton_poi_fused_0", 5, 0, "[128, 1, 1]")]) + "]}")
    got = occ.inspect(base, gpu="H200", launches=trace, sort="name")
    scale = [k for k in got if k.mangled == "_Z5scalePfi"]
    assert sorted((k.launch_block, k.launch_dyn_smem_bytes, k.threads) for k in scale) == [
        ((16, 16, 1), 8192, 256), ((64, 1, 1), 0, 64)]
    assert all(k.launch_source == "profile" for k in scale)
    add = [k for k in got if k.mangled == "_Z3addPf"]
    assert len(add) == 1 and add[0].launch_source == "api"
    cli = json.loads(run_cli(["inspect", "--gpu", "H200", "--launches", str(trace), "--json",
                              "--sort", "name", str(base)]).stdout)
    assert [(f["mangled"], f["launch"]["source"], f["occupancy"]["threads"])
            for f in cli["functions"]] == [(k.mangled, k.launch_source, k.threads) for k in got]
    with pytest.raises(occ.OccError, match="launches"):
        occ.inspect(base, launches=tmp_path / "missing.json")


def test_launches_from_a_table(tmp_path):
    """inspect(launches=) reads a launch table as ``occ inspect --launches``
    does (libocc-profile's occ_profile_launches_read): a row per launch, at its
    block dims and dynamic shared memory; a bad cell is refused with the file,
    the line, the column and the value."""
    rows = [_baseline_row("_Z5scalePfi"), _baseline_row("_Z3addPf"), _baseline_row("_Z4idlev")]
    base = tmp_path / "b.json"
    base.write_text('{"schema":"occ.baseline","version":1,"occ_version":"0.1.0","inputs":[{"file":'
                    '"k.cubin","format":"cubin"}],"options":{"arch":null,"functions":false,'
                    '"all":false,"filter":null},"function_count":3,"functions":[\n'
                    + ",\n".join(rows) + "\n]}\n")
    table = tmp_path / "launches.csv"
    table.write_text('kernel,block,dyn_smem,weight,carveout\n'
                     '"scale(float*, int)",16x16,8K,3,\n'
                     '*add*,128,1.5KiB,1,25\n'
                     'add*,64,0,1,\n'
                     'not_in_any_binary,64,0,4,\n')
    got = occ.inspect(base, gpu="H200", launches=table, sort="name")
    by_name = {}
    for k in got:
        by_name.setdefault(k.mangled, []).append(k)
    assert [(k.launch_block, k.launch_dyn_smem_bytes, k.launch_source)
            for k in by_name["_Z5scalePfi"]] == [((16, 16, 1), 8192, "table")]
    assert sorted((k.launch_block, k.launch_dyn_smem_bytes, k.launch_carveout_percent)
                  for k in by_name["_Z3addPf"]) == [((64, 1, 1), 0, None),
                                                    ((128, 1, 1), 1536, 25)]
    assert [k.launch_source for k in by_name["_Z4idlev"]] == ["api"]
    cli = json.loads(run_cli(["inspect", "--gpu", "H200", "--launches", str(table), "--json",
                              "--sort", "name", str(base)]).stdout)
    assert cli["launch_match"]["source"] == "table" and cli["launch_match"]["matched"] == 3
    assert [(f["mangled"], f["launch"]["source"], f["occupancy"]["threads"])
            for f in cli["functions"]] == [(k.mangled, k.launch_source, k.threads) for k in got]
    bad = tmp_path / "bad.csv"
    for text, why in (("kernel,block,dyn_smem\nk,64,0\nk,2048,0\n",
                       "line 3: block: '2048' is above the maximum, 1024"),
                      ("kernel,block,dyn_smem\nk,0,0\n",
                       "line 2: block: '0' is below the minimum, 1"),
                      ("kernel,block,dyn_smem\nk,64,lots\n",
                       "line 2: dyn_smem: 'lots' is not a size in bytes"),
                      ("kernel,block\nk,64\n", "line 1: dyn_smem: missing")):
        bad.write_text(text)
        with pytest.raises(occ.OccError) as e:
            occ.inspect(base, gpu="H200", launches=bad)
        assert str(e.value).startswith(f"launches: {bad}: {why}"), str(e.value)
        assert e.value.status == "bad format" and e.value.field == "launches"
        cli = run_cli(["inspect", "--launches", str(bad), str(base)], check=False)
        assert f"{bad}: {why}" in cli.stderr


def test_options_checked_by_the_library():
    """jobs, arch and threads outside their ranges are refused by name, not
    run (jobs=10**6 once took 1.4 GB)."""
    for bad, field in ((dict(jobs=10**6), "options.jobs"), (dict(threads=2048), "options.threads")):
        with pytest.raises(occ.OccError, match=field):
            occ.inspect(PROBE_LOG, **bad)


def test_endless_stream_within_the_process_budget():
    """occ.inspect('/dev/zero') is refused at OCC_INSPECT_MAX_STREAM_BYTES
    and the whole Python process stays under 256 MB (it peaked at 279 MB:
    the stream buffer doubled past the limit). In a child of its own, which
    reports its own peak RSS: VmHWM of /proc/self/status, the high-water mark
    of its own memory. Not getrusage's ru_maxrss, which Linux carries across
    exec from the process that forked it: under pytest that read the
    test runner's 251 MB."""
    import os
    import subprocess
    import sys

    code = ("import occ\n"
            "try:\n"
            "    occ.inspect('/dev/zero')\n"
            "except occ.OccError as e:\n"
            "    print(e)\n"
            "print([l.split()[1] for l in open('/proc/self/status')\n"
            "       if l.startswith('VmHWM:')][0])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ), check=True)
    message, peak_kib = proc.stdout.splitlines()
    assert "/dev/zero: more than 128 MiB from a stream" in message, proc.stdout + proc.stderr
    assert int(peak_kib) * 1024 <= 256_000_000, f"peak RSS {peak_kib} KiB, above 256 MB"
