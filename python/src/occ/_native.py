"""The C libraries through ctypes: loading, the structs of include/occ.h,
include/occ_inspect.h (with occ_diff.h and occ_regs.h) and
include/occ_profile.h, and the prototypes.

Every struct here mirrors its C declaration field by field, in order;
tests/test_abi.py compiles the headers and checks each field's offset and
each struct's size against these, so a change in the headers that is not
made here fails the tests rather than corrupting memory.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import (
    POINTER,
    Structure,
    c_bool,
    c_char,
    c_char_p,
    c_double,
    c_int,
    c_longlong,
    c_size_t,
    c_uint,
    c_void_p,
)

from ._errors import OccError

# Sizes fixed by the headers (include/occ.h, include/occ_inspect.h,
# include/occ_profile.h).
ERROR_MESSAGE_BYTES = 256  # OCC_ERROR_MESSAGE_BYTES
MAX_CARVEOUT_STEPS = 12  # OCC_MAX_CARVEOUT_STEPS
DEVICE_NAME_BYTES = 64  # OCC_DEVICE_NAME_BYTES
MAX_GPCS = 32  # OCC_MAX_GPCS
EXPLAIN_TEXT_BYTES = 1024  # OCC_EXPLAIN_TEXT_BYTES (its default, which this build keeps)
EXPLAIN_TEXT_MAX = 14 * EXPLAIN_TEXT_BYTES + 256  # OCC_EXPLAIN_TEXT_MAX
INSPECT_ERROR_MESSAGE_BYTES = 512  # OCC_INSPECT_ERROR_MESSAGE_BYTES
PROFILE_ERROR_MESSAGE_BYTES = 512  # OCC_PROFILE_ERROR_MESSAGE_BYTES
PROFILE_HISTOGRAM_BINS = 10  # OCC_PROFILE_HISTOGRAM_BINS
PROFILE_KINETO_CAUSES = 8  # occ_profile_summary.kineto_by_cause[8]

# Values with a meaning of their own (include/occ.h).
UNLIMITED = 2147483647  # OCC_UNLIMITED: a limit the kernel's use of a resource never reaches
CARVEOUT_DEFAULT = -1  # OCC_CARVEOUT_DEFAULT: no carveout preference
OPTIN_MAX = -1  # OCC_DYN_SMEM_OPTIN_MAX: opted in to the GPU's maximum
NO_OPTIN = -2  # OCC_DYN_SMEM_NO_OPTIN: never opted in
INSPECT_UNKNOWN = -1  # OCC_INSPECT_UNKNOWN: a value the input does not carry
INSPECT_LAUNCH_OVER_BOUNDS = 1 << 0  # occ_inspect_kernel.launch_flags bits
INSPECT_LAUNCH_NOT_REQNTID = 1 << 1
INSPECT_LAUNCH_CLUSTER = 1 << 2
INSPECT_LAUNCH_FROM_PROFILE = 2  # occ_inspect_launch_source: OCC_INSPECT_LAUNCH_PROFILE
PROFILE_UNKNOWN = -1  # OCC_PROFILE_UNKNOWN: a value the trace does not carry
ERR_NULL_POINTER = 5  # OCC_ERR_NULL_POINTER

# occ_limiter bits, in the order the CLI lists them (warps, blocks, registers,
# shared_mem, barriers: docs/json.md).
LIMITER_BITS = (
    ("warps", 1 << 0),
    ("blocks", 1 << 3),
    ("registers", 1 << 1),
    ("shared_mem", 1 << 2),
    ("barriers", 1 << 4),
)


class Error(Structure):
    _fields_ = [
        ("field", c_char_p),
        ("message", c_char * ERROR_MESSAGE_BYTES),
        ("status", c_int),
    ]


class Device(Structure):
    _fields_ = [
        ("name", c_char * DEVICE_NAME_BYTES),
        ("cc_major", c_int),
        ("cc_minor", c_int),
        ("warp_size_threads", c_int),
        ("max_threads_per_block", c_int),
        ("max_threads_per_sm", c_int),
        ("max_blocks_per_sm", c_int),
        ("regs_per_sm", c_int),
        ("regs_per_block", c_int),
        ("max_regs_per_thread", c_int),
        ("reg_alloc_unit", c_int),
        ("sub_partitions_per_sm", c_int),
        ("reg_fit_sub_partitions", c_int),
        ("smem_per_sm_bytes", c_int),
        ("smem_per_block_bytes", c_int),
        ("smem_per_block_optin_bytes", c_int),
        ("smem_reserved_per_block_bytes", c_int),
        ("smem_alloc_unit_bytes", c_int),
        ("carveout_step_count", c_int),
        ("carveout_steps_bytes", c_int * MAX_CARVEOUT_STEPS),
        ("barriers_per_block_slot", c_int),
        ("partitioned_gc", c_bool),
        ("sm_count", c_int),
        ("sm_clock_mhz", c_int),
        ("mem_bandwidth_gb_per_s", c_int),
        ("l2_bytes", c_int),
        ("mem_latency_ns", c_int),
        ("mem_latency_source", c_int),
        ("mem_latency_citation", c_char_p),
        ("gpc_count", c_int),
        ("gpc_sms", c_int * MAX_GPCS),
        ("gpc_source", c_int),
        ("gpc_citation", c_char_p),
    ]


class Kernel(Structure):
    _fields_ = [
        ("block_x", c_int),
        ("block_y", c_int),
        ("block_z", c_int),
        ("regs_per_thread", c_int),
        ("static_smem_bytes", c_int),
        ("dyn_smem_bytes", c_int),
        ("max_threads_per_block", c_int),
        ("barriers", c_int),
        ("carveout_percent", c_int),
        ("max_dyn_smem_bytes", c_int),
        ("partitioned_gc", c_int),
        ("smem_config_bytes", c_int),
        ("cluster_x", c_int),
        ("cluster_y", c_int),
        ("cluster_z", c_int),
        ("cluster_non_portable", c_bool),
        ("cluster_policy", c_int),
        ("max_blocks_per_cluster", c_int),
    ]


class Result(Structure):
    _fields_ = [
        ("threads_per_block", c_int),
        ("warps_per_block", c_int),
        ("blocks_per_sm", c_int),
        ("warps_per_sm", c_int),
        ("threads_per_sm", c_int),
        ("max_warps_per_sm", c_int),
        ("occupancy", c_double),
        ("limit_warps", c_int),
        ("limit_blocks", c_int),
        ("limit_registers", c_int),
        ("limit_shared_mem", c_int),
        ("limit_barriers", c_int),
        ("limiters", c_uint),
        ("zero_reason", c_int),
        ("regs_per_warp_allocated", c_int),
        ("regs_per_block_allocated", c_int),
        ("warps_per_sm_by_regs", c_int),
        ("smem_per_block_allocated_bytes", c_int),
        ("smem_per_block_limit_bytes", c_int),
        ("smem_per_sm_bytes", c_int),
        ("smem_preferred_bytes", c_int),
        ("partitioned_gc_on", c_bool),
        ("needs_optin", c_bool),
        ("exceeds_launch_bounds", c_bool),
    ]


class BlockSizeResult(Structure):
    _fields_ = [
        ("block_size", c_int),
        ("min_grid_size", c_int),
        ("blocks_per_sm", c_int),
        ("occupancy", c_double),
    ]


class DynSmemResult(Structure):
    _fields_ = [("driver_bytes", c_int), ("fitting_bytes", c_int)]


class SweepPoint(Structure):
    _fields_ = [
        ("value", c_int),
        ("blocks_per_sm", c_int),
        ("warps_per_sm", c_int),
        ("occupancy", c_double),
    ]


class ExplainStep(Structure):
    _fields_ = [
        ("resource", c_int),
        ("limit_blocks", c_int),
        ("binds", c_bool),
        ("text", c_char * EXPLAIN_TEXT_BYTES),
    ]


class ExplainOption(Structure):
    _fields_ = [
        ("value", c_int),
        ("blocks_per_sm", c_int),
        ("warps_per_sm", c_int),
        ("occupancy", c_double),
    ]


class ExplainChange(Structure):
    _fields_ = [
        ("input", c_int),
        ("current_value", c_int),
        ("helps", c_bool),
        ("next", ExplainOption),
        ("best", ExplainOption),
        ("text", c_char * EXPLAIN_TEXT_BYTES),
    ]


class Explanation(Structure):
    _fields_ = [
        ("result", Result),
        ("summary", c_char * EXPLAIN_TEXT_BYTES),
        ("steps", ExplainStep * 5),
        ("step_count", c_int),
        ("regs_unallocated_per_sm", c_int),
        ("regs_rounding_per_warp", c_int),
        ("smem_unused_per_sm_bytes", c_int),
        ("warp_slots_unused", c_int),
        ("warp_slots_stranded", c_int),
        ("idle_lanes_per_block", c_int),
        ("waste", c_char * (EXPLAIN_TEXT_BYTES * 2)),
        ("changes", ExplainChange * 4),
        ("change_count", c_int),
        ("caution", c_char * (EXPLAIN_TEXT_BYTES * 2)),
    ]


class WavesResult(Structure):
    _fields_ = [
        ("waves_per_sm", c_double),
        ("full_waves", c_longlong),
        ("last_wave_blocks", c_longlong),
        ("last_wave_fraction", c_double),
        ("persistent_grid_blocks", c_longlong),
        ("tail_idle_fraction", c_double),
    ]


class GapInput(Structure):
    _fields_ = [
        ("blocks_per_sm", c_int),
        ("warps_per_block", c_int),
        ("max_warps_per_sm", c_int),
        ("sm_count", c_int),
        ("grid_blocks", c_longlong),
        ("cluster_size", c_int),
        ("active_clusters", c_int),
        ("theoretical", c_double),
        ("achieved", c_double),
        ("achieved_measured", c_bool),
    ]


class GapResult(Structure):
    _fields_ = [
        ("cause", c_int),
        ("gap", c_double),
        ("grid_bound", c_double),
        ("cluster_loss", c_double),
        ("small_grid_loss", c_double),
        ("tail_loss", c_double),
        ("in_kernel", c_double),
        ("wave_blocks", c_longlong),
        ("grid_blocks", c_longlong),
        ("full_waves", c_longlong),
        ("last_wave_blocks", c_longlong),
        ("active_sms", c_int),
    ]


class ClusterResult(Structure):
    _fields_ = [
        ("cluster_x", c_int),
        ("cluster_y", c_int),
        ("cluster_z", c_int),
        ("cluster_size", c_int),
        ("launch_refused", c_bool),
        ("blocks_per_sm", c_int),
        ("max_active_clusters", c_int),
        ("max_potential_cluster_size", c_int),
        ("active_blocks", c_int),
        ("active_sms", c_int),
        ("sm_count", c_int),
        ("exact", c_bool),
        ("gpc_source", c_int),
        ("gpc_count", c_int),
        ("gpc_sms", c_int * MAX_GPCS),
        ("gpc_clusters", c_int * MAX_GPCS),
        ("gpc_active_sms", c_int * MAX_GPCS),
    ]


class MemoryModel(Structure):
    _fields_ = [
        ("latency_ns", c_double),
        ("peak_gb_per_s", c_double),
        ("loaded_latency_factor", c_double),
        ("max_bytes_in_flight_per_sm", c_double),
        ("sm_count", c_int),
        ("max_gb_per_s_per_warp", c_double),
    ]


class LatencyInput(Structure):
    _fields_ = [
        ("warps_per_sm", c_double),
        ("loads_in_flight_per_thread", c_double),
        ("bytes_per_load", c_double),
        ("active_sms", c_int),
        ("bytes_moved_per_byte_loaded", c_double),
        ("spill_bytes_per_byte_loaded", c_double),
    ]


class LatencyResult(Structure):
    _fields_ = [
        ("bytes_in_flight_per_sm", c_double),
        ("bytes_in_flight_needed_per_sm", c_double),
        ("loaded_latency_ns", c_double),
        ("predicted_gb_per_s", c_double),
        ("fraction_of_peak", c_double),
        ("warps_needed_per_sm", c_double),
        ("loads_per_thread_needed", c_double),
        ("bound", c_int),
    ]


class InspectInput(Structure):
    _fields_ = [("path", c_char_p), ("data", c_void_p), ("size", c_size_t)]


class InspectOptions(Structure):
    _fields_ = [
        ("device", POINTER(Device)),
        ("threads", c_int),
        ("dyn_smem_bytes", c_int),
        ("arch_sm", c_int),
        ("arch_suffix", c_char),
        ("arch_any_suffix", c_bool),
        ("functions", c_bool),
        ("relfatbin", c_bool),
        ("demangle", c_bool),
        ("jobs", c_int),
    ]


class InspectLaunch(Structure):
    _fields_ = [
        ("name", c_char_p),
        ("mangled", c_char_p),
        ("glob", c_bool),
        ("block", c_int * 3),
        ("dyn_smem_bytes", c_int),
        ("smem_total_bytes", c_int),
        ("cluster", c_int * 3),
        ("grid_blocks", c_longlong),
        ("weight", c_double),
        ("source", c_int),
        ("carveout_percent", c_int),
    ]


class InspectLaunchMatch(Structure):
    _fields_ = [
        ("launches", c_size_t),
        ("matched", c_size_t),
        ("rows", c_size_t),
        ("kernels_launched", c_size_t),
        ("weight", c_double),
        ("matched_weight", c_double),
    ]


class InspectLaunchList(Structure):
    _fields_ = [
        ("path", c_char_p),
        ("kind", c_char_p),
        ("launches", POINTER(InspectLaunch)),
        ("count", c_size_t),
        ("matched", POINTER(c_bool)),
        ("match", InspectLaunchMatch),
    ]


class DiffRequest(Structure):
    _fields_ = [
        ("old_inputs", POINTER(InspectInput)),
        ("old_count", c_int),
        ("new_inputs", POINTER(InspectInput)),
        ("new_count", c_int),
        ("old_label", c_char_p),
        ("new_label", c_char_p),
        ("read", POINTER(InspectOptions)),
        ("filter", c_char_p),
        ("launches", POINTER(InspectLaunchList)),
        ("fail_on", c_char_p),
        ("allow_path", c_char_p),
    ]


# occ_regs_progress_fn: void (*)(void *context, int done, int total, bool cached)
REGS_PROGRESS_FN = ctypes.CFUNCTYPE(None, c_void_p, c_int, c_int, c_bool)


class RegsOptions(Structure):
    _fields_ = [
        ("device", POINTER(Device)),
        ("arch_sm", c_int),
        ("arch_suffix", c_char),
        ("threads", c_int),
        ("dyn_smem_bytes", c_int),
        ("caps", POINTER(c_int)),
        ("cap_count", c_int),
        ("min_blocks", POINTER(c_int)),
        ("min_blocks_count", c_int),
        ("kernel_glob", c_char_p),
        ("jobs", c_int),
        ("ptxas", c_char_p),
        ("nvcc", c_char_p),
        ("nvcc_args", POINTER(c_char_p)),
        ("nvcc_arg_count", c_int),
        ("cache_dir", c_char_p),
        ("bytes_loaded_per_thread", c_double),
        ("loads_in_flight_per_thread", c_double),
        ("bytes_per_load", c_double),
        ("progress", REGS_PROGRESS_FN),
        ("progress_context", c_void_p),
    ]


class InspectKernel(Structure):
    _fields_ = [
        ("name", c_char_p),
        ("mangled", c_char_p),
        ("sm", c_int),
        ("arch_suffix", c_char),
        ("is_kernel", c_bool),
        ("relocatable", c_bool),
        ("from_log", c_bool),
        ("regs", c_int),
        ("smem_bytes", c_int),
        ("smem_section_bytes", c_int),
        ("stack_bytes", c_int),
        ("frame_bytes", c_int),
        ("spill_store_bytes", c_int),
        ("spill_load_bytes", c_int),
        ("spill_instructions", c_int),
        ("barriers", c_int),
        ("max_threads", c_int * 3),
        ("req_threads", c_int * 3),
        ("max_regs", c_int),
        ("cluster_dims", c_int * 3),
        ("explicit_cluster", c_bool),
        ("max_cluster_rank", c_int),
        ("param_bytes", c_int),
        ("count", c_int),
        ("input", c_int),
        ("section", c_char_p),
        ("has_occupancy", c_bool),
        ("note", c_char_p),
        ("gpu", c_char * DEVICE_NAME_BYTES),
        ("threads", c_int),
        ("blocks_per_sm", c_int),
        ("warps_per_sm", c_int),
        ("max_warps_per_sm", c_int),
        ("occupancy", c_double),
        ("limiters", c_uint),
        ("zero_reason", c_int),
        ("cluster_size", c_int),
        ("max_active_clusters", c_int),
        ("launch_flags", c_uint),
        ("launch_source", c_int),
        ("launch_index", c_int),
        ("launch_block", c_int * 3),
        ("launch_dyn_smem_bytes", c_int),
        ("launch_cluster", c_int * 3),
        ("launch_carveout_percent", c_int),
    ]


class InspectError(Structure):
    _fields_ = [
        ("status", c_int),
        ("input", c_int),
        ("offset", c_longlong),
        ("message", c_char * INSPECT_ERROR_MESSAGE_BYTES),
    ]


class ProfileInput(Structure):
    _fields_ = [("path", c_char_p)]


class ProfileOptions(Structure):
    _fields_ = [("device", POINTER(Device))]


class ProfileDevice(Structure):
    _fields_ = [
        ("input", c_int),
        ("trace_id", c_int),
        ("trace_name", c_char * DEVICE_NAME_BYTES),
        ("trace_sm_count", c_int),
        ("trace_cc_major", c_int),
        ("trace_cc_minor", c_int),
        ("gpu", Device),
        ("gpu_known", c_bool),
        ("launches", c_longlong),
        ("gpu_time_us", c_double),
    ]


class ProfileGroup(Structure):
    _fields_ = [
        ("device", c_int),
        ("name", c_char_p),
        ("mangled", c_char_p),
        ("grid", c_int * 3),
        ("block", c_int * 3),
        ("cluster", c_int * 3),
        ("cluster_known", c_bool),
        ("regs_per_thread", c_int),
        ("static_smem_bytes", c_int),
        ("dyn_smem_bytes", c_int),
        ("smem_bytes", c_int),
        ("local_bytes_per_thread", c_int),
        ("cache_preference", c_int),
        ("carveout_percent", c_int),
        ("launches", c_longlong),
        ("gpu_time_us", c_double),
        ("max_time_us", c_double),
        ("computed", c_bool),
        ("note", c_char_p),
        ("result", Result),
        ("occupancy", c_double),
        ("limiters", c_uint),
        ("smem_config_bytes", c_int),
        ("smem_config_rule", c_int),
        ("waves", c_double),
        ("tail_idle_fraction", c_double),
        ("grid_occupancy", c_double),
        ("max_active_clusters", c_int),
        ("clusters_exact", c_bool),
        ("trace_smem_config_bytes", c_int),
        ("trace_smem_config_differs", c_longlong),
        ("kineto_est_occupancy", c_double),
        ("kineto_cause", c_int),
        ("kineto_model_occupancy", c_double),
    ]


class ProfileSummary(Structure):
    _fields_ = [
        ("launches_read", c_longlong),
        ("launches_computed", c_longlong),
        ("gpu_time_us", c_double),
        ("weighted_occupancy", c_double),
        ("histogram_us", c_double * PROFILE_HISTOGRAM_BINS),
        ("smem_config_checked", c_longlong),
        ("smem_config_differs", c_longlong),
        ("kineto_checked", c_longlong),
        ("kineto_by_cause", c_longlong * PROFILE_KINETO_CAUSES),
    ]


class ProfileError(Structure):
    _fields_ = [
        ("status", c_int),
        ("input", c_int),
        ("where", c_longlong),
        ("message", c_char * PROFILE_ERROR_MESSAGE_BYTES),
    ]


# int (*occ_smem_for_block_fn)(int block_size, void *context), returning size_t
SMEM_FOR_BLOCK_FN = ctypes.CFUNCTYPE(c_size_t, c_int, c_void_p)

_HERE = os.path.dirname(os.path.abspath(__file__))
# OCC_LIBRARY_DIR: load libocc.so.0, libocc-inspect.so.0 and
# libocc-profile.so.0 from there
# instead of the package (a system install, or a build tree under test).
LIBRARY_DIR = os.environ.get("OCC_LIBRARY_DIR") or _HERE


def _load(name: str) -> ctypes.CDLL:
    path = os.path.join(LIBRARY_DIR, name)
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"occ: cannot load {path}: {e}") from e


# Each ctypes struct and the C struct it declares.
STRUCTS = {
    "occ_error": Error,
    "occ_device": Device,
    "occ_kernel": Kernel,
    "occ_result": Result,
    "occ_block_size_result": BlockSizeResult,
    "occ_dyn_smem_result": DynSmemResult,
    "occ_sweep_point": SweepPoint,
    "occ_explanation": Explanation,
    "occ_waves_result": WavesResult,
    "occ_cluster_result": ClusterResult,
    "occ_memory_model": MemoryModel,
    "occ_latency_input": LatencyInput,
    "occ_latency_result": LatencyResult,
    "occ_gap_input": GapInput,
    "occ_gap_result": GapResult,
    "occ_inspect_input": InspectInput,
    "occ_inspect_options": InspectOptions,
    "occ_inspect_kernel": InspectKernel,
    "occ_inspect_error": InspectError,
    "occ_inspect_launch": InspectLaunch,
    "occ_inspect_launch_match": InspectLaunchMatch,
    "occ_inspect_launch_list": InspectLaunchList,
    "occ_diff_request": DiffRequest,
    "occ_regs_options": RegsOptions,
    "occ_profile_input": ProfileInput,
    "occ_profile_options": ProfileOptions,
    "occ_profile_device": ProfileDevice,
    "occ_profile_group": ProfileGroup,
    "occ_profile_summary": ProfileSummary,
    "occ_profile_error": ProfileError,
}


def _check_layouts() -> None:
    """Refuses libraries whose structs differ in size from the declarations
    above (a header changed and this file did not follow): they would
    corrupt memory. _abi.py beside the libraries holds the sizes the
    compiler gave them; without it (libraries built elsewhere) the tests'
    offset check is the guard."""
    path = os.path.join(LIBRARY_DIR, "_abi.py")
    if not os.path.exists(path):
        return
    namespace: dict = {}
    with open(path, encoding="utf-8") as f:
        exec(f.read(), namespace)  # a generated dict literal (python/abi.py.in)
    wrong = [
        f"{name} is {size} bytes in C, {ctypes.sizeof(STRUCTS[name])} in occ/_native.py"
        for name, size in namespace["SIZES"].items()
        if name in STRUCTS and ctypes.sizeof(STRUCTS[name]) != size
    ]
    if wrong:
        raise ImportError(
            "occ: the libraries' structs differ from the binding's (include/occ.h changed; "
            "python/src/occ/_native.py must follow): " + "; ".join(wrong)
        )


_check_layouts()
lib = _load("libocc.so.0")

_ERR = POINTER(Error)
_DEV = POINTER(Device)
_KER = POINTER(Kernel)


def _proto(name: str, restype, *argtypes) -> None:
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes


_proto("occ_version", c_char_p)
_proto("occ_status_name", c_char_p, c_int)
_proto("occ_gpu_count", c_int)
_proto("occ_gpu_at", c_int, c_int, _DEV, POINTER(c_bool), POINTER(POINTER(c_char_p)), _ERR)
_proto("occ_gpu_find", c_int, c_char_p, _DEV, _ERR)
_proto("occ_arch_name", None, c_int, c_int, c_char_p, c_size_t)
_proto("occ_device_max_warps_per_sm", c_int, _DEV)
_proto("occ_kernel_init", None, _KER)
_proto("occ_calc", c_int, _DEV, _KER, POINTER(Result), _ERR)
_proto("occ_calc_batch", c_int, c_void_p, c_int, c_void_p, c_void_p, c_size_t, c_void_p,
       c_void_p, _ERR)
_proto(
    "occ_max_potential_block_size",
    c_int,
    _DEV,
    _KER,
    c_int,
    SMEM_FOR_BLOCK_FN,
    c_void_p,
    POINTER(BlockSizeResult),
    _ERR,
)
_proto("occ_dyn_smem_available", c_int, _DEV, _KER, c_int, c_int, POINTER(DynSmemResult), _ERR)
_proto("occ_sweep_point_count", c_int, _DEV, c_int)
_proto("occ_sweep_current_value", c_int, _DEV, _KER, c_int, POINTER(c_int), _ERR)
_proto("occ_sweep", c_int, _DEV, _KER, c_int, POINTER(SweepPoint), c_int, POINTER(c_int), _ERR)
_proto("occ_explain", c_int, _DEV, _KER, POINTER(Explanation), _ERR)
_proto("occ_explain_text", c_size_t, _DEV, _KER, c_char_p, c_size_t, _ERR)
_proto("occ_launch_waves", c_int, c_int, c_int, c_longlong, POINTER(WavesResult), _ERR)
_proto("occ_cluster_calc", c_int, _DEV, _KER, POINTER(ClusterResult), _ERR)
_proto("occ_gpc_source_name", c_char_p, c_int)
_proto("occ_latency_predict", c_int, POINTER(MemoryModel), POINTER(LatencyInput),
       POINTER(LatencyResult), _ERR)
_proto("occ_achieved_gap", c_int, POINTER(GapInput), POINTER(GapResult), _ERR)
_proto("occ_gap_cause_name", c_char_p, c_int)
_proto("occ_limiter_name", c_char_p, c_int)
_proto("occ_zero_reason_text", c_char_p, c_int)
_proto("occ_latency_bound_name", c_char_p, c_int)
_proto("occ_latency_source_name", c_char_p, c_int)
_proto("occ_smem_config_rule_name", c_char_p, c_int)


def text(raw: bytes | None) -> str | None:
    """A C string from the library (UTF-8; names from files may hold any
    byte, shown as U+FFFD rather than failing)."""
    return None if raw is None else raw.decode("utf-8", "replace")


def raise_error(err: Error) -> None:
    """Raises OccError with the core's message, field and status."""
    raise OccError(
        text(err.message) or "",
        status=text(lib.occ_status_name(err.status)) or "",
        code=err.status,
        field=text(err.field),
    )


_inspect_lib: ctypes.CDLL | None = None
_inspect_missing: str | None = None


def inspect_lib() -> ctypes.CDLL:
    """libocc-inspect, loaded on first use (occ.inspect, occ.diff, occ.regs)."""
    global _inspect_lib, _inspect_missing
    if _inspect_lib is not None:
        return _inspect_lib
    if _inspect_missing is None:
        path = os.path.join(LIBRARY_DIR, "libocc-inspect.so.0")
        if not os.path.exists(path):
            _inspect_missing = f"libocc-inspect is missing: no {path}"
        else:
            try:
                candidate = ctypes.CDLL(path)
            except OSError as e:
                _inspect_missing = f"cannot load {path}: {e}"
            else:
                _proto_inspect(candidate)
                _inspect_lib = candidate
                return candidate
    raise OccError(_inspect_missing, status="not found", code=4, field="inspect")


def _proto_inspect(il: ctypes.CDLL) -> None:
    res = c_void_p  # occ_inspect_result *, opaque
    ierr = POINTER(InspectError)
    table = {
        "occ_inspect_options_init": (None, POINTER(InspectOptions)),
        "occ_inspect_read": (
            c_int,
            POINTER(InspectInput),
            c_int,
            POINTER(InspectOptions),
            POINTER(res),
            ierr,
        ),
        "occ_inspect_result_free": (None, res),
        "occ_inspect_kernel_count": (c_size_t, res),
        "occ_inspect_kernel_at": (POINTER(InspectKernel), res, c_size_t),
        "occ_inspect_sort": (c_int, res, c_int, ierr),
        "occ_inspect_filter": (c_int, res, c_char_p, ierr),
        "occ_inspect_arch_name": (c_char_p, c_int, c_char, c_char_p, c_size_t),
        "occ_inspect_apply_launches": (
            c_int,
            res,
            POINTER(InspectOptions),
            POINTER(InspectLaunch),
            c_size_t,
            POINTER(c_bool),
            POINTER(InspectLaunchMatch),
            ierr,
        ),
        "occ_inspect_launch_source_name": (c_char_p, c_int),
        # a GPU described in JSON (--gpu-file, docs/gpu-file.md)
        "occ_inspect_gpu_file": (c_int, c_char_p, POINTER(Device), ierr),
        "occ_inspect_gpu_from_json": (c_int, c_char_p, c_size_t, c_char_p, POINTER(Device), ierr),
        # include/occ_diff.h: a whole diff as its occ.diff document
        "occ_diff_run_json": (
            c_int,
            POINTER(DiffRequest),
            POINTER(c_void_p),
            POINTER(c_size_t),
            POINTER(c_size_t),
            ierr,
        ),
        "occ_inspect_text_free": (None, c_void_p),
        # include/occ_regs.h: the engine of occ regs, its document as text
        "occ_regs_options_init": (None, POINTER(RegsOptions)),
        "occ_regs_run": (
            c_int,
            c_char_p,
            c_void_p,
            c_size_t,
            POINTER(RegsOptions),
            POINTER(c_void_p),
            ierr,
        ),
        "occ_regs_json_text": (c_int, c_void_p, POINTER(c_void_p), POINTER(c_size_t), ierr),
        "occ_regs_result_free": (None, c_void_p),
    }
    for name, (restype, *argtypes) in table.items():
        f = getattr(il, name)
        f.restype = restype
        f.argtypes = argtypes


_profile_lib: ctypes.CDLL | None = None
_profile_missing: str | None = None


def profile_lib() -> ctypes.CDLL:
    """libocc-profile, loaded on first use (occ.profile only)."""
    global _profile_lib, _profile_missing
    if _profile_lib is not None:
        return _profile_lib
    if _profile_missing is None:
        path = os.path.join(LIBRARY_DIR, "libocc-profile.so.0")
        if not os.path.exists(path):
            _profile_missing = f"libocc-profile is missing: no {path}"
        else:
            try:
                candidate = ctypes.CDLL(path)
            except OSError as e:
                _profile_missing = f"cannot load {path}: {e}"
            else:
                _proto_profile(candidate)
                _profile_lib = candidate
                return candidate
    raise OccError(_profile_missing, status="not found", code=4, field="profile")


def _proto_profile(pl: ctypes.CDLL) -> None:
    res = c_void_p  # occ_profile_result *, opaque
    perr = POINTER(ProfileError)
    table = {
        "occ_profile_options_init": (None, POINTER(ProfileOptions)),
        "occ_profile_read": (
            c_int,
            POINTER(ProfileInput),
            c_int,
            POINTER(ProfileOptions),
            POINTER(res),
            perr,
        ),
        "occ_profile_result_free": (None, res),
        "occ_profile_group_count": (c_size_t, res),
        "occ_profile_group_at": (POINTER(ProfileGroup), res, c_size_t),
        "occ_profile_device_count": (c_size_t, res),
        "occ_profile_device_at": (POINTER(ProfileDevice), res, c_size_t),
        "occ_profile_summary_of": (POINTER(ProfileSummary), res),
        "occ_profile_input_format": (c_int, res, c_int),
        "occ_profile_format_name": (c_char_p, c_int),
        "occ_profile_kineto_cause_name": (c_char_p, c_int),
        "occ_profile_rank": (c_size_t, res, POINTER(c_size_t), c_size_t),
        # occ_profile_launches *, opaque: a profile's or a launch table's launches
        "occ_profile_launches_read": (c_int, c_char_p, POINTER(c_void_p), perr),
        "occ_profile_launches_list": (POINTER(InspectLaunchList), c_void_p),
        "occ_profile_launches_free": (None, c_void_p),
    }
    for name, (restype, *argtypes) in table.items():
        f = getattr(pl, name)
        f.restype = restype
        f.argtypes = argtypes
