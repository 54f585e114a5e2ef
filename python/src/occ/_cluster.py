"""occ.cluster: a thread-block cluster launch (CC 9.0 on), on the GPU's GPC
layout: libocc's occ_cluster_calc."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from . import _native as n
from ._errors import OccError
from ._gpu import GpuLike, device_of
from ._kernel import Threads, block_dims, make

_POLICIES = ("default", "spread", "load-balancing")  # occ_cluster_policy 0..2


@dataclass
class ClusterGpc:
    """One GPC of the layout and what a cluster launch puts on it."""

    sms: int
    clusters: int  # active clusters in this GPC
    active_sms: int  # its SMs holding a block


@dataclass
class Cluster:
    """A cluster launch's occupancy (occ_cluster_result; the ``cluster``
    object of ``occ calc --cluster ... --json``)."""

    dims: tuple[int, int, int]
    size: int  # blocks per cluster
    non_portable: bool
    policy: str  # default, spread, load-balancing
    blocks_per_sm: int  # resident blocks per SM a cluster launch counts (at most 8)
    max_active_clusters: int  # cudaOccupancyMaxActiveClusters
    max_potential_cluster_size: int  # cudaOccupancyMaxPotentialClusterSize
    active_blocks: int
    active_sms: int
    gpc_layout_source: str  # measured, published, given, unknown
    exact: bool  # False: no GPC layout, the counts are upper bounds
    launch_refused: bool  # a size the driver answers for but refuses to launch
    gpcs: list[ClusterGpc]


def cluster(
    gpu: GpuLike,
    threads: Threads,
    cluster: int | tuple[int, ...],
    *,
    non_portable: bool = False,
    policy: str = "default",
    regs: int = 0,
    smem: int = 0,
    dyn_smem: int = 0,
    barriers: int = 1,
    carveout: int | str | None = None,
    max_threads: int | None = None,
    optin: int | str = "max",
    smem_config: int | None = None,
    partitioned_gc: str = "off",
) -> Cluster:
    """The occupancy of a thread-block cluster launch, as the driver's
    cudaOccupancyMaxActiveClusters counts it, on the GPU's GPC layout
    (libocc's occ_cluster_calc; docs/occupancy-rules.md, "Clusters").

    Args:
        cluster: blocks per cluster: 2, or a shape (4, 2) or (2, 2, 2).
        non_portable: cudaFuncAttributeNonPortableClusterSizeAllowed:
            clusters above 8 blocks, up to 16.
        policy: the cluster scheduling policy: "default", "spread" or
            "load-balancing".

    The other arguments are occ.calc's.

    Raises:
        OccError: a GPU below compute capability 9.0 or without an SM count
            (a generic entry such as sm_90), a cluster the driver refuses,
            or a kernel occ.calc refuses.
    """
    if policy not in _POLICIES:
        raise OccError(f"policy {policy!r} is not one of default, spread, load-balancing",
                       status="invalid argument", code=1, field="cluster_policy")
    k = make(threads, regs, smem, dyn_smem, barriers, carveout, max_threads, optin, smem_config,
             partitioned_gc)
    k.cluster_x, k.cluster_y, k.cluster_z = block_dims(cluster)
    k.cluster_non_portable = non_portable
    k.cluster_policy = _POLICIES.index(policy)
    r = n.ClusterResult()
    err = n.Error()
    if n.lib.occ_cluster_calc(ctypes.byref(device_of(gpu)), ctypes.byref(k), ctypes.byref(r),
                              ctypes.byref(err)):
        n.raise_error(err)
    return Cluster(
        dims=(r.cluster_x, r.cluster_y, r.cluster_z),
        size=r.cluster_size,
        non_portable=non_portable,
        policy=policy,
        blocks_per_sm=r.blocks_per_sm,
        max_active_clusters=r.max_active_clusters,
        max_potential_cluster_size=r.max_potential_cluster_size,
        active_blocks=r.active_blocks,
        active_sms=r.active_sms,
        gpc_layout_source=n.text(n.lib.occ_gpc_source_name(r.gpc_source)) or "",
        exact=r.exact,
        launch_refused=r.launch_refused,
        gpcs=[ClusterGpc(r.gpc_sms[g], r.gpc_clusters[g], r.gpc_active_sms[g])
              for g in range(r.gpc_count)],
    )
