#!/usr/bin/env python3
"""make_hostile.py - writes the hostile inputs of tests/test_inspect_hostile.c into this
directory (README.md says what each one is). The files are checked in; run this only to
make them again:  python3 tests/data/hostile/make_hostile.py

Each binary is built from nothing, field by field, after the layouts of
docs/binary-formats.md: a cubin of one kernel (_Z1kv, sm_90) and a fatbin of one
compressed cubin entry, then one field is made hostile. cubin-baseline.cubin is the
unchanged cubin, so that a test can show the reader takes it and that each hostile copy
fails for its own reason.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = b"_Z1kv"


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def strtab(names):
    """A string table: a leading NUL, each name NUL-terminated; offsets by name."""
    blob = b"\0"
    offsets = {}
    for n in names:
        offsets[n] = len(blob)
        blob += n + b"\0"
    return blob, offsets


def nvinfo_sval(attribute, payload):
    return struct.pack("<BBH", 0x04, attribute, len(payload)) + payload


def elf(machine, flags, sections, shstrtab_no_nul=False):
    """An ELF64 file: sections is a list of (name, type, flags, data_or_size, link, info,
    entsize); section 0 (null) and .shstrtab (index 1) are added here. NOBITS sections give
    their size instead of data."""
    names = [b".shstrtab"] + [s[0] for s in sections]
    shstr, offsets = strtab(names)
    if shstrtab_no_nul:
        shstr = shstr[:-1] + b"X"  # the table's last byte, which must be NUL
    all_sections = [(b".shstrtab", 3, 0, shstr, 0, 0, 0)] + sections
    body = b""
    headers = [b"\0" * 64]
    data_start = 64
    for name, stype, sflags, data, link, info, entsize in all_sections:
        offset = data_start + len(body)
        if stype == 8:  # SHT_NOBITS: a size, no bytes
            size = data
        else:
            size = len(data)
            body += data
            body += b"\0" * (-len(body) % 8)
        headers.append(struct.pack("<IIQQQQIIQQ", offsets[name], stype, sflags, 0, offset,
                                   size, link, info, 8, entsize))
    shoff = data_start + len(body)
    ident = b"\x7fELF" + bytes([2, 1, 1, 0x41 if machine == 190 else 0, 8]) + b"\0" * 7
    header = ident + struct.pack("<HHIQQQIHHHHHH", 2, machine, 1, 0, 0, shoff, flags, 64, 56,
                                 0, 64, len(headers), 1)
    return header + body + b"".join(headers)


def cubin(regs=32, smem_bytes=256, symbol_section=None, max_threads=None,
          shstrtab_no_nul=False):
    """One kernel, _Z1kv, for sm_90 (CUDA 13 layout: EI_ABIVERSION 8, SM in e_flags bits
    8..15). Section indexes: 2 .strtab, 3 .symtab, 4 .nv.info, 5 .nv.info._Z1kv,
    6 .nv.shared._Z1kv, 7 .text._Z1kv."""
    text_index = 7
    strings, name_at = strtab([KERNEL])
    symbols = b"\0" * 24 + struct.pack(
        "<IBBHQQ", name_at[KERNEL], 0x12, 0x10,  # GLOBAL FUNC, st_other 0x10: a kernel
        text_index if symbol_section is None else symbol_section, 0, 16)
    module_info = (nvinfo_sval(0x2F, struct.pack("<II", 1, regs)) +       # REGCOUNT
                   nvinfo_sval(0x12, struct.pack("<II", 1, 0)) +          # MIN_STACK_SIZE
                   nvinfo_sval(0x11, struct.pack("<II", 1, 0)))           # FRAME_SIZE
    kernel_info = nvinfo_sval(0x19, struct.pack("<I", 0))                 # CBANK_PARAM_SIZE
    if max_threads is not None:
        kernel_info += nvinfo_sval(0x05, struct.pack("<III", *max_threads))  # MAX_THREADS
    sections = [
        (b".strtab", 3, 0, strings, 0, 0, 0),
        (b".symtab", 2, 0, symbols, 2, 1, 24),
        (b".nv.info", 0x70000000, 0, module_info, 3, 0, 0),
        (b".nv.info." + KERNEL, 0x70000000, 0x40, kernel_info, 3, text_index, 0),
        (b".nv.shared." + KERNEL, 8, 3, smem_bytes, 0, text_index, 0),
        (b".text." + KERNEL, 1, 6, b"\0" * 16, 3, (regs & 0xFF) << 24 | 1, 0),
    ]
    return elf(190, 90 << 8, sections, shstrtab_no_nul)


def fatbin(compressed_bytes, uncompressed_bytes):
    """One container with one zstd-compressed sm_90 cubin entry; the payload is never
    decompressed when the claimed size is refused, so its bytes do not matter."""
    payload = b"\x28\xb5\x2f\xfd" + b"\0" * (compressed_bytes - 4)
    payload += b"\0" * (-len(payload) % 16)
    header = struct.pack("<HHIQIIIIQQQQ",
                         2, 0x0101, 0x40, len(payload),  # kind cubin, header size, payload
                         compressed_bytes, 0, 0, 90,     # compressed size, SM 90
                         0, 0x8000 | 0x11, 0,            # flags: zstd (0x8000), 64-bit
                         uncompressed_bytes)             # the claim, at 0x38
    assert len(header) == 0x40
    entries = header + payload
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entries)) + entries


def log(*lines):
    return "".join(line + "\n" for line in lines).encode()


COMPILING = "ptxas info    : Compiling entry function '_Z1kv' for 'sm_90'"

def ar(*members):
    """A GNU ar archive (ar(5)): "!<arch>\\n", then each (name, data) member under a 60-byte
    header with a System V name ("name/", up to 15 bytes), padded to an even offset."""
    out = b"!<arch>\n"
    for name, data in members:
        out += b"%-16s%-12s%-6s%-6s%-8s%-10d`\n" % (name + b"/", b"0", b"0", b"0", b"644",
                                                    len(data))
        out += data + b"\n" * (len(data) % 2)
    return out


def nested(levels, inside):
    """`inside` (a list of members) in an archive inside an archive ..., `levels` archives in
    all, as `ar q big.a inner.a` makes them."""
    archive = ar(*inside)
    for level in range(levels - 1):
        archive = ar((b"level%d.a" % (levels - 1 - level), archive))
    return archive


def baseline(*functions, head=b'"schema":"occ.baseline","version":1,'):
    """An occ.baseline document (docs/json.md) of the given function objects."""
    return b"{" + head + b'"functions":[' + b",".join(functions) + b"]}\n"


BASELINE_FUNCTION = (b'{"mangled":"_Z1kv","arch":"sm_90","kind":"kernel","regs":32,'
                     b'"smem_bytes":256,"stack_bytes":0}')


def patched(data, *fields):
    """A copy of data with (offset, struct format, value) fields written over it."""
    data = bytearray(data)
    for offset, fmt, value in fields:
        struct.pack_into(fmt, data, offset, value)
    return bytes(data)


BASELINE = cubin()
SHOFF = struct.unpack_from("<Q", BASELINE, 40)[0]
write("cubin-baseline.cubin", BASELINE)
# gABI extended section numbering: e_shnum 0 and e_shstrndx SHN_XINDEX, the real values in
# section 0's sh_size and sh_link. Legal (files of 65,280 sections or more need it): read.
write("cubin-extended-numbering.cubin",
      patched(BASELINE, (60, "<H", 0), (62, "<H", 0xFFFF), (SHOFF + 32, "<Q", 8),
              (SHOFF + 40, "<I", 1)))
write("cubin-no-section-table.cubin", patched(BASELINE, (40, "<Q", 0), (60, "<H", 0)))
write("cubin-symbol-xindex.cubin", cubin(symbol_section=0xFFFF))
write("cubin-shstrtab-no-nul.cubin", cubin(shstrtab_no_nul=True))
write("cubin-symbol-section-index.cubin", cubin(symbol_section=0xFE00))
write("cubin-regs-16394.cubin", cubin(regs=16394))
write("cubin-smem-2p64.cubin", cubin(smem_bytes=(1 << 64) - 1))
write("cubin-launch-bounds-overflow.cubin", cubin(max_threads=(0xFFFFFFFF,) * 3))
write("host-shstrtab-no-nul.so", elf(62, 0, [(b".nv_fatbin", 1, 2, b"\0" * 16, 0, 0, 0)],
                                     shstrtab_no_nul=True))
write("fatbin-entry-too-large.fatbin", fatbin(16, 1 << 40))
write("fatbin-entry-ratio.fatbin", fatbin(16, 16 * 512 + 1))
write("log-regs-999999999.log", log(COMPILING, "ptxas info    : Used 999999999 registers"))
write("log-regs-999999999999.log",
      log(COMPILING, "ptxas info    : Used 999999999999 registers"))
write("log-spill-overflow.log",
      log(COMPILING, "ptxas info    : Function properties for _Z1kv",
          "    0 bytes stack frame, 4294967296 bytes spill stores, 0 bytes spill loads",
          "ptxas info    : Used 32 registers, used 0 barriers"))
write("log-barriers-99.log", log(COMPILING, "ptxas info    : Used 32 registers, used 99 barriers"))
write("log-bom.log", b"\xef\xbb\xbf" + log(COMPILING, "ptxas info    : Used 32 registers"))
write("log-control-chars.log",
      log("ptxas info    : Compiling entry function 'evil\x1b]0;title\x07\x1b[2Jname' for 'sm_90'",
          "ptxas info    : Used 32 registers, used 0 barriers"))
# an archive inside an archive (`ar q big.a inner.a`): read as its members ("0 kernels" before)
write("archive-nested.a", nested(2, [(b"k.cubin", BASELINE)]))
# archives nested 5 deep, one more than INSP_ARCHIVE_MAX_DEPTH
write("archive-nested-5-deep.a", nested(5, [(b"k.cubin", BASELINE)]))
# a thin archive (its members in other files) as a member
write("archive-nested-thin.a", ar((b"k.cubin", BASELINE), (b"thin.a", b"!<thin>\n")))
# a second "functions" after an empty first (issue 21 reported it read): refused, as any key twice
write("baseline-functions-twice.json",
      b'{"schema":"occ.baseline","version":1,"functions":[],"functions":['
      + BASELINE_FUNCTION + b"]}\n")
# version 2 (refused as newer) hidden behind a second "version": 1, which was read
write("baseline-version-twice.json",
      baseline(BASELINE_FUNCTION, head=b'"schema":"occ.baseline","version":2,"version":1,'))
write("baseline-regs-twice.json",
      baseline(BASELINE_FUNCTION[:-1] + b',"regs":64}'))
# "k\xe9" in Latin-1: JSON is UTF-8 (RFC 8259), and the writer would make it U+FFFD
write("baseline-not-utf8.json", baseline(BASELINE_FUNCTION.replace(b"_Z1kv", b"k\xe9")))
