"""help(occ.calc) reads well: every public function has a docstring that
names what it mirrors, its arguments, and what it raises; the signatures
carry type hints and the C defaults."""

from __future__ import annotations

import inspect
import pydoc
import typing

import occ

FUNCTIONS = [occ.calc, occ.calc_batch, occ.cluster, occ.explain, occ.explanation, occ.sweep,
             occ.suggest, occ.waves, occ.dyn_smem_available, occ.latency, occ.inspect,
             occ.regs, occ.from_triton, occ.profile, occ.from_torch_profiler, occ.gpu, occ.gpus,
             occ.limiter_names, occ.triton.prune, occ.triton.pruner, occ.triton.check,
             occ.triton.matmul_smem_bytes, occ.triton.estimate_regs]


def test_every_public_name_is_documented():
    for name in occ.__all__:
        obj = getattr(occ, name)
        if callable(obj):
            assert inspect.getdoc(obj), name
    for f in FUNCTIONS:
        doc = inspect.getdoc(f)
        assert len(doc.splitlines()) >= 2, f.__name__
        hints = typing.get_type_hints(f)
        assert "return" in hints, f.__name__
        params = [p for p in inspect.signature(f).parameters if p not in ("args", "kwargs")]
        assert all(p in hints for p in params), (f.__name__, set(params) - set(hints))


def test_help_of_calc_reads_as_the_cli_option_table():
    text = pydoc.render_doc(occ.calc, renderer=pydoc.plaintext)
    sig = inspect.signature(occ.calc)
    assert list(sig.parameters)[:2] == ["gpu", "threads"]
    # every argument explained, in the order of the signature
    positions = [text.index(f"    {name}:") for name in list(sig.parameters)]
    assert positions == sorted(positions)
    for words in ("cudaOccupancyMaxActiveBlocksPerMultiprocessor", "Returns:", "Raises:",
                  "OccError", "__launch_bounds__", "Example:"):
        assert words in text
    # defaults are the driver's (occ_kernel_init): one barrier, opted in to the maximum
    assert sig.parameters["barriers"].default == occ._kernel.DEFAULT.barriers
    assert sig.parameters["optin"].default == "max"
    assert occ._kernel.DEFAULT.max_dyn_smem_bytes == occ.OPTIN_MAX
    assert sig.parameters["carveout"].default is None
    assert occ._kernel.DEFAULT.carveout_percent == occ.CARVEOUT_DEFAULT


def test_results_are_dataclasses_with_documented_fields():
    r = occ.calc("H200", 256, regs=64, smem=16384)
    assert set(r.limits) == {"warps", "blocks", "registers", "shared_mem", "barriers"}
    assert "blocks_per_sm=4" in repr(r)
    for cls in (occ.CalcResult, occ.Cluster, occ.Gpu, occ.Sweep, occ.Suggestion, occ.Latency,
                occ.InspectKernel, occ.TritonOccupancy, occ.BatchResult, occ.Profile,
                occ.ProfileGroup, occ.ProfileGpu, occ.ProfileArrays, occ.triton.ConfigCheck,
                occ.triton.Pruner):
        assert inspect.getdoc(cls), cls.__name__
