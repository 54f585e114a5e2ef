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
   the section table's order: of every ".text*" section its name, its
   sh_info (older cubins keep the register count in its top byte) and its
   bytes, and of the module's ".nv.info" every REGCOUNT record (a function's
   register count: where CUDA 12 and 13 put it). Identical code with another
   register count hashes apart: ws_gemm_nolb (lab/regs) compiles to the same
   bytes at every cap from 40 to 255, with 40 to 232 registers at entry, and
   hangs at 40 to 160 but runs at 168. 0 when the bytes are not an ELF64 file
   whose section table and names lie inside them: such a cubin is never
   grouped with another. */
uint64_t lab_regs_code_hash(const unsigned char *data, size_t size);

/* Gives every record without a code hash the hash of its cubin in `dir`
   (the record's "cubin", else NAME.none.cubin or NAME.capNNN.cubin). A
   cubin that cannot be read is an error naming it (EXIT_DATA). */
bool lab_regs_hash_cubins(lab_regs_data *data, const char *dir, cli_error *err);

#endif /* OCC_CLI_LAB_REGS_CUBIN_H */
