/*
 * lab_regs_cubin.h - the code hash of a cubin, for records that carry none
 * (the first H200 run's): equal hashes mean the same machine code with the
 * same registers, so that `occ lab regs` scores such cubins as one.
 */
#ifndef OCC_CLI_LAB_REGS_CUBIN_H
#define OCC_CLI_LAB_REGS_CUBIN_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "lab_regs_records.h"

/* The largest cubin read (one kernel's are tens of KB). */
#define LAB_REGS_MAX_CUBIN_BYTES ((size_t)64 << 20)

/* FNV-1a (64 bits) over the sections of an ELF64 little-endian file, in
   the section table's order: of every ".text*" section and of the module's
   ".nv.info" (where CUDA 12 and 13 keep each function's register count,
   REGCOUNT; sh_info of .text is then the symbol's index) the name, sh_info
   (the register count, in its top byte, in older cubins) and the bytes. The
   algorithm of occ-regs-bench's "code_hash" (cubin_code_hash in
   lab/regs/regs_bench.cu), so that hashes from both compare. Identical code
   with another register count hashes apart: ws_gemm_nolb (lab/regs) compiles
   to one .text at most caps from 24 to 255, with 40 to 232 registers, and
   hangs at 40 to 160 but runs at 168. A function's own .nv.info.NAME, where the cap
   ptxas was given is, is left out. 0 when the bytes are not an ELF64 file
   whose section table and names lie inside them: such a cubin is never
   grouped with another. */
uint64_t lab_regs_code_hash(const unsigned char *data, size_t size);

/* Gives every record without a code hash the hash of its cubin in `dir`
   (the record's "cubin", else NAME.none.cubin or NAME.capNNN.cubin). A
   cubin that cannot be read is an error naming it (EXIT_DATA). */
bool lab_regs_hash_cubins(lab_regs_data *data, const char *dir, cli_error *err);

#endif /* OCC_CLI_LAB_REGS_CUBIN_H */
