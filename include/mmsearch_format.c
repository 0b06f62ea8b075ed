/*
 * mmsearch_format.c: what the format needs beyond its structs: the XXH64 checksum, whole or streamed
 * (Yann Collet's xxHash, 64-bit variant, as specified at xxhash.com; reimplemented here).
 */
#include "mmsearch_format.h"

#include <string.h>

static const uint64_t P1 = 0x9E3779B185EBCA87ULL;
static const uint64_t P2 = 0xC2B2AE3D27D4EB4FULL;
static const uint64_t P3 = 0x165667B19E3779F9ULL;
static const uint64_t P4 = 0x85EBCA77C2B2AE63ULL;
static const uint64_t P5 = 0x27D4EB2F165667C5ULL;

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* Unaligned little-endian reads; memcpy compiles to a plain load. The format is little-endian only. */
static inline uint64_t read64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t read32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static inline uint64_t round64(uint64_t acc, uint64_t input) {
    acc += input * P2;
    acc = rotl(acc, 31);
    return acc * P1;
}

static inline uint64_t merge64(uint64_t acc, uint64_t val) {
    acc ^= round64(0, val);
    return acc * P1 + P4;
}

/* The last step of both forms: h already holds the lanes' merge (or seed + P5) and the length. */
static uint64_t finish64(uint64_t h, const uint8_t *p, const uint8_t *end) {
    while (p + 8 <= end) {
        h ^= round64(0, read64(p));
        h = rotl(h, 27) * P1 + P4;
        p += 8;
    }
    if (p + 4 <= end) {
        h ^= (uint64_t)read32(p) * P1;
        h = rotl(h, 23) * P2 + P3;
        p += 4;
    }
    while (p < end) {
        h ^= (*p) * P5;
        h = rotl(h, 11) * P1;
        p++;
    }
    h ^= h >> 33; h *= P2;
    h ^= h >> 29; h *= P3;
    h ^= h >> 32;
    return h;
}

static inline uint64_t merge_lanes(const uint64_t v[4]) {
    uint64_t h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
    for (int i = 0; i < 4; i++) h = merge64(h, v[i]);
    return h;
}

uint64_t mms_xxh64(const void *data, size_t length, uint64_t seed) {
    mms_xxh64_state state;
    mms_xxh64_reset(&state, seed);
    mms_xxh64_update(&state, data, length);
    return mms_xxh64_digest(&state);
}

void mms_xxh64_reset(mms_xxh64_state *state, uint64_t seed) {
    memset(state, 0, sizeof *state);
    state->seed = seed;
    state->lanes[0] = seed + P1 + P2;
    state->lanes[1] = seed + P2;
    state->lanes[2] = seed;
    state->lanes[3] = seed - P1;
}

void mms_xxh64_update(mms_xxh64_state *state, const void *data, size_t length) {
    const uint8_t *p = (const uint8_t *)data;
    const uint8_t *end = p + length;
    state->total_length += length;
    if (state->buffered + length < 32) {
        if (length > 0) memcpy(state->buffer + state->buffered, p, length);
        state->buffered += (uint32_t)length;
        return;
    }
    if (state->buffered > 0) {
        size_t fill = 32 - state->buffered;
        memcpy(state->buffer + state->buffered, p, fill);
        p += fill;
        for (int i = 0; i < 4; i++) state->lanes[i] = round64(state->lanes[i], read64(state->buffer + 8 * i));
        state->buffered = 0;
    }
    while (p + 32 <= end) {
        for (int i = 0; i < 4; i++) state->lanes[i] = round64(state->lanes[i], read64(p + 8 * i));
        p += 32;
    }
    if (p < end) {
        memcpy(state->buffer, p, (size_t)(end - p));
        state->buffered = (uint32_t)(end - p);
    }
}

uint64_t mms_xxh64_digest(const mms_xxh64_state *state) {
    uint64_t h = state->total_length >= 32 ? merge_lanes(state->lanes) : state->seed + P5;
    h += state->total_length;
    return finish64(h, state->buffer, state->buffer + state->buffered);
}
