/* An XZ stream unpacked, in a standalone WebAssembly module (``_xz.wasm``): how the static site reads the shipped
 * equity tables (``store.py``'s blocks, ``shipped.py``'s solved races), which are XZ streams, where Pyodide's npm
 * package has no ``lzma``. Natively Python's ``lzma`` reads them; this module is never built as an extension.
 *
 * The LZMA2 data are decoded by the LZMA SDK's decoder (``lzma/Lzma2Dec.c``, ``lzma/LzmaDec.c``, public domain);
 * the container around them (the XZ format, version 1.0.4: a stream's header, its blocks, its index and its
 * footer) is read here, every CRC in it checked, and each block's check (none, CRC-32 or CRC-64; SHA-256 is not
 * read) compared with its data. One stream, with nothing after it: what ``lzma.compress`` writes.
 *
 * Calls: ``xz_size(in, n)``: the unpacked size of the stream of ``n`` bytes at ``in`` (from its index), or -1;
 * ``xz_unpack(in, n, out, room)``: the stream unpacked into ``out`` (``room`` bytes at least its size), its size, or
 * -1; ``xz_error_text()``: why the last call gave -1. ``wasm_alloc`` / ``wasm_free``: the module's memory. */
#include <stddef.h>
#include <stdint.h>

#include "lzma/Lzma2Dec.c"
#include "lzma/LzmaDec.c"

#define EXPORT(name) __attribute__((export_name(#name)))

void *malloc(size_t n);
void free(void *p);

static const char *last_error = "";

EXPORT(wasm_alloc) void *wasm_alloc(int bytes) { return malloc((size_t)bytes); }
EXPORT(wasm_free) void wasm_free(void *p) { free(p); }
EXPORT(xz_error_text) const char *xz_error_text(void) { return last_error; }

static void *sz_alloc(ISzAllocPtr p, size_t size) { (void)p; return malloc(size); }
static void sz_free(ISzAllocPtr p, void *address) { (void)p; free(address); }
static const ISzAlloc allocator = {sz_alloc, sz_free};

static uint32_t crc32_table[256];
static uint64_t crc64_table[256];

static void make_tables(void) {
    if (crc32_table[1])
        return;
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        uint64_t d = i;
        for (int k = 0; k < 8; k++) {
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
            d = (d >> 1) ^ (0xC96C5795D7870F42ull & (0ull - (d & 1)));
        }
        crc32_table[i] = c;
        crc64_table[i] = d;
    }
}

static uint32_t crc32(const uint8_t *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    while (n--)
        c = crc32_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint64_t crc64(const uint8_t *p, size_t n) {
    uint64_t c = ~0ull;
    while (n--)
        c = crc64_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return ~c;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

/* A variable-length integer at ``*at`` (below ``end``), ``*at`` moved past it; -1 where it is cut short or too long. */
static int64_t vli(const uint8_t *in, size_t *at, size_t end) {
    uint64_t value = 0;
    for (int k = 0; k < 9; k++) {
        if (*at >= end)
            return -1;
        uint8_t b = in[(*at)++];
        value |= (uint64_t)(b & 0x7F) << (7 * k);
        if (!(b & 0x80))
            return (b == 0 && k > 0) || value >> 63 ? -1 : (int64_t)value;
    }
    return -1;
}

static const uint8_t HEADER_MAGIC[6] = {0xFD, '7', 'z', 'X', 'Z', 0};

static int fail(const char *why) {
    last_error = why;
    return -1;
}

/* The stream's check type (its header read and checked), or -1. */
static int stream_check(const uint8_t *in, size_t n) {
    if (n < 24)
        return fail("not an XZ stream (too short)");
    for (int k = 0; k < 6; k++)
        if (in[k] != HEADER_MAGIC[k])
            return fail("not an XZ stream (no header)");
    if (crc32(in + 6, 2) != le32(in + 8) || in[6] != 0 || in[7] > 15)
        return fail("the stream's header is damaged");
    if (in[n - 2] != 'Y' || in[n - 1] != 'Z' || crc32(in + n - 8, 6) != le32(in + n - 12)
        || in[n - 4] != in[6] || in[n - 3] != in[7])
        return fail("the stream's footer is damaged, cut short, or followed by other bytes");
    int check = in[7];
    if (check != 0 && check != 1 && check != 4)
        return fail("the stream's check is neither CRC-32 nor CRC-64");
    return check;
}

/* The index's place (``*at``) and its number of blocks, checked; -1 where it is damaged. */
static int64_t index_of(const uint8_t *in, size_t n, size_t *at, size_t *end) {
    size_t size = ((size_t)le32(in + n - 8) + 1) * 4;
    if (size > n - 24)
        return fail("the stream's index is out of place");
    *at = n - 12 - size;
    *end = n - 12;
    if (in[*at] != 0 || crc32(in + *at, size - 4) != le32(in + *end - 4))
        return fail("the stream's index is damaged");
    (*at)++;
    return vli(in, at, *end - 4);
}

EXPORT(xz_size) int64_t xz_size(const uint8_t *in, int n) {
    make_tables();
    if (stream_check(in, (size_t)n) < 0)
        return -1;
    size_t at, end;
    int64_t blocks = index_of(in, (size_t)n, &at, &end), total = 0;
    if (blocks < 0)
        return fail("the stream's index is damaged");
    for (int64_t b = 0; b < blocks; b++) {
        int64_t unpadded = vli(in, &at, end - 4), size = vli(in, &at, end - 4);
        if (unpadded <= 0 || size < 0 || total + size > 0x7FFFFFFF)
            return fail("the stream's index is damaged");
        total += size;
    }
    return total;
}

EXPORT(xz_unpack) int64_t xz_unpack(const uint8_t *in, int n, uint8_t *out, int room) {
    make_tables();
    int check = stream_check(in, (size_t)n);
    if (check < 0)
        return -1;
    size_t check_size = check == 0 ? 0 : check == 1 ? 4 : 8;
    size_t rec, index_end;
    int64_t blocks = index_of(in, (size_t)n, &rec, &index_end);
    size_t index_at = index_end - ((size_t)le32(in + n - 8) + 1) * 4;   /* (its indicator byte) */
    if (blocks < 0)
        return fail("the stream's index is damaged");
    size_t at = 12, made = 0;
    for (int64_t b = 0; b < blocks; b++) {
        /* the block's header: its size, flags, sizes (if given), its one filter (LZMA2) and its CRC-32 */
        if (at >= index_at || in[at] == 0)
            return fail("the stream has fewer blocks than its index says");
        size_t head = ((size_t)in[at] + 1) * 4, start = at, head_end = at + head;
        if (head_end > index_at || crc32(in + at, head - 4) != le32(in + head_end - 4))
            return fail("a block's header is damaged");
        uint8_t flags = in[at + 1];
        at += 2;
        if ((flags & 0x3C) || (flags & 3) != 0)
            return fail("a block is not one LZMA2 filter (not read here)");
        int64_t packed = -1, unpacked = -1;
        if (flags & 0x40 && (packed = vli(in, &at, head_end - 4)) <= 0)
            return fail("a block's header is damaged");
        if (flags & 0x80 && (unpacked = vli(in, &at, head_end - 4)) < 0)
            return fail("a block's header is damaged");
        if (vli(in, &at, head_end - 4) != 0x21 || vli(in, &at, head_end - 4) != 1 || at >= head_end - 4)
            return fail("a block is not one LZMA2 filter (not read here)");
        uint8_t prop = in[at++];
        while (at < head_end - 4)
            if (in[at++])
                return fail("a block's header is damaged");
        at = head_end;
        /* its data */
        SizeT out_len = (SizeT)room - made, in_len = index_at - at;
        ELzmaStatus status;
        SRes res = Lzma2Decode(out + made, &out_len, in + at, &in_len, prop, LZMA_FINISH_END, &status, &allocator);
        if (res == SZ_ERROR_MEM)
            return fail("no memory left");
        if (res != SZ_OK || status != LZMA_STATUS_FINISHED_WITH_MARK)
            return fail(res == SZ_OK && status == LZMA_STATUS_NOT_FINISHED ? "it unpacks to more than its index says"
                                                                             : "its data are damaged");
        if ((packed >= 0 && (int64_t)in_len != packed) || (unpacked >= 0 && (int64_t)out_len != unpacked))
            return fail("a block's sizes are not its header's");
        at += in_len;
        size_t unpadded = at - start + check_size;
        while ((at - start) % 4)
            if (at >= index_at || in[at++])
                return fail("a block's padding is damaged");
        if (at + check_size > index_at)
            return fail("the stream is cut short");
        if ((check == 1 && crc32(out + made, out_len) != le32(in + at))
            || (check == 4 && crc64(out + made, out_len) != le64(in + at)))
            return fail("its data are damaged (their check differs)");
        at += check_size;
        /* the index's record of it */
        if (vli(in, &rec, index_end - 4) != (int64_t)unpadded
            || vli(in, &rec, index_end - 4) != (int64_t)out_len)
            return fail("a block is not as the stream's index says");
        made += out_len;
    }
    if (at != index_at)
        return fail("the stream has more blocks than its index says");
    while (rec < index_end - 4)
        if (in[rec++])
            return fail("the stream's index is damaged");
    return (int64_t)made;
}
