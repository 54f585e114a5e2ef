"""occ: CUDA occupancy as the driver computes it, from Python.

The binding of libocc (include/occ.h), libocc-inspect
(include/occ_inspect.h) and libocc-profile (include/occ_profile.h): no GPU,
no CUDA, the same answers as the ``occ`` command.

    >>> import occ
    >>> r = occ.calc("H200", 256, regs=64, smem=16384)
    >>> r.blocks_per_sm, r.occupancy, r.limiters
    (4, 0.5, ('registers',))

Functions: gpu, gpus, gpu_from_file, calc, calc_batch, cluster, explain, explanation,
sweep, suggest, waves, dyn_smem_available, latency, achieved_gap, inspect, diff,
regs, from_triton, profile, from_torch_profiler, limiter_names; the module
occ.triton (prune, pruner, check: Triton's autotune pruner). Every bad input
raises OccError with the core's message.
docs/python.md has the guide.
"""

from ._errors import OccError
from ._native import CARVEOUT_DEFAULT, NO_OPTIN, OPTIN_MAX, UNLIMITED
from ._native import lib as _lib
from ._gpu import Gpu, gpu, gpu_from_file, gpus
from ._calc import (
    Allocation,
    CalcResult,
    ExplainChange,
    ExplainOption,
    ExplainStep,
    Explanation,
    Waste,
    calc,
    explain,
    explanation,
    limiter_names,
)
from ._batch import BatchResult, calc_batch
from ._cluster import Cluster, ClusterGpc, cluster
from ._launch import (
    DynSmemAvailable,
    Launch,
    Suggestion,
    Sweep,
    SweepPoint,
    Waves,
    dyn_smem_available,
    suggest,
    sweep,
    waves,
)
from ._latency import (
    AchievedGap,
    Latency,
    LatencyInput,
    LatencyModel,
    LatencyPrediction,
    achieved_gap,
    latency,
)
from ._inspect import InspectKernel, inspect
from ._diff import diff
from ._regs import regs
from ._triton import TritonOccupancy, from_triton
from . import triton  # occ.triton: prune, pruner, check (the autotune pruner)
from ._profile import (
    Profile,
    ProfileArrays,
    ProfileChecks,
    ProfileGpu,
    ProfileGroup,
    ProfileHistogramBin,
    ProfileInput,
    ProfileKinetoCheck,
    ProfileSmemConfigCheck,
    from_torch_profiler,
    profile,
)

__version__: str = _lib.occ_version().decode()

__all__ = [
    "CARVEOUT_DEFAULT",
    "NO_OPTIN",
    "OPTIN_MAX",
    "UNLIMITED",
    "AchievedGap",
    "Allocation",
    "BatchResult",
    "CalcResult",
    "Cluster",
    "ClusterGpc",
    "DynSmemAvailable",
    "ExplainChange",
    "ExplainOption",
    "ExplainStep",
    "Explanation",
    "Gpu",
    "InspectKernel",
    "Latency",
    "LatencyInput",
    "LatencyModel",
    "LatencyPrediction",
    "Launch",
    "OccError",
    "Profile",
    "ProfileArrays",
    "ProfileChecks",
    "ProfileGpu",
    "ProfileGroup",
    "ProfileHistogramBin",
    "ProfileInput",
    "ProfileKinetoCheck",
    "ProfileSmemConfigCheck",
    "Suggestion",
    "Sweep",
    "SweepPoint",
    "TritonOccupancy",
    "Waste",
    "Waves",
    "calc",
    "calc_batch",
    "achieved_gap",
    "cluster",
    "dyn_smem_available",
    "explain",
    "explanation",
    "from_torch_profiler",
    "from_triton",
    "gpu",
    "gpu_from_file",
    "gpus",
    "inspect",
    "diff",
    "latency",
    "limiter_names",
    "profile",
    "regs",
    "suggest",
    "sweep",
    "triton",
    "waves",
]
