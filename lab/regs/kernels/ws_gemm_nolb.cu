/*
 * ws_gemm_nolb.cu - ws_gemm_setmaxnreg.cu without __launch_bounds__: the
 * trap of NVIDIA/cutlass#3406 and tile-ai/tilelang#2406. With no cap ptxas
 * cannot tell the register count at entry and drops setmaxnreg ("(C7508)
 * Potential Performance Loss: 'setmaxnreg' ignored"), and the consumers'
 * 8 x 16 tile then takes 194 registers a thread for the whole block: 384
 * such threads do not fit an SM, so the kernel cannot launch. With
 * --maxrregcount C ptxas keeps setmaxnreg and starts the block at C
 * registers a thread (ptxas 13.0, sm_90a), so the block's pool is C x 384:
 * below C = 168 the consumers' setmaxnreg.inc to 232 asks for more than the
 * pool holds (the warp groups' budget is 64,512), and "setmaxnreg.inc
 * blocks the execution until enough registers are available" (PTX ISA,
 * setmaxnreg): forever (below 40 the producers' .dec even asks to grow).
 * Above 168 the block does not fit the SM's 65,536. Only cap 168 runs as
 * written. The runner's hang timeout exists for this kernel;
 * it is last in kernels.tsv so that a hang costs no other measurement.
 * (It includes its sibling, so the two kernels cannot drift apart.)
 */
#define WS_LAUNCH_BOUNDS
#include "ws_gemm_setmaxnreg.cu"
