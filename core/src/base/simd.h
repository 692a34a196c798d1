/* The one lane layer: the only file that includes the intrinsics headers. wasm SIMD when built with -msimd128, SSE2
 * natively, plain C lanes otherwise; kernels are written once against these names.
 *
 *  f4      four float lanes    F4_*
 *  i32x4   four int32 lanes    I32X4_*
 *  i16x8   eight int16 lanes   I16X8_*
 *  f64x2   two double lanes    f64x2_* (compiler vector extensions: + - * / and compares work on them directly)
 *
 * Every operation is the plain IEEE or two's-complement one per lane, so a lane gives bit for bit what the scalar
 * expression gives (min/max are `a < b ? a : b` and `a > b ? a : b` per lane, as in the scalar code that uses them).
 * The one exception is F4_SUM3, whose order of additions is the target's cheapest (see there). Masks come from the
 * compares as all-ones / all-zero lanes on every target, so F4_AND with a mask selects a value (x or +0.0f); they
 * are read with F4_BITS (bit i = lane i). */
#ifndef SNUG_SIMD_H
#define SNUG_SIMD_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
typedef v128_t f4;
typedef v128_t i32x4;
typedef v128_t i16x8;
#define F4_LOAD(p) wasm_v128_load(p)
#define F4_STORE(p, v) wasm_v128_store(p, v)
#define F4_MIN(a, b) wasm_f32x4_pmin(b, a)
#define F4_MAX(a, b) wasm_f32x4_pmax(b, a)
#define F4_ADD(a, b) wasm_f32x4_add(a, b)
#define F4_SUB(a, b) wasm_f32x4_sub(a, b)
#define F4_MUL(a, b) wasm_f32x4_mul(a, b)
#define F4_SQRT(a) wasm_f32x4_sqrt(a)
#define F4_SET1(x) wasm_f32x4_splat(x)
#define F4_LE(a, b) wasm_f32x4_le(a, b)
#define F4_LT(a, b) wasm_f32x4_lt(a, b)
#define F4_AND(a, b) wasm_v128_and(a, b)
#define F4_OR(a, b) wasm_v128_or(a, b)
#define F4_ABS(a) wasm_f32x4_abs(a)
#define F4_BITS(m) ((int)wasm_i32x4_bitmask(m))
/* (a0 b0 a1 b1), (a2 b2 a3 b3), (a0 a1 b0 b1), (a2 a3 b2 b3), (a3 a3 a3 a3), (a1 a2 a0 a3) */
#define F4_UNPACK_LO(a, b) wasm_i32x4_shuffle(a, b, 0, 4, 1, 5)
#define F4_UNPACK_HI(a, b) wasm_i32x4_shuffle(a, b, 2, 6, 3, 7)
#define F4_HALVES_LO(a, b) wasm_i32x4_shuffle(a, b, 0, 1, 4, 5)
#define F4_HALVES_HI(a, b) wasm_i32x4_shuffle(a, b, 2, 3, 6, 7)
#define F4_SPLAT_W(a) wasm_i32x4_shuffle(a, a, 3, 3, 3, 3)
#define F4_YZXW(a) wasm_i32x4_shuffle(a, a, 1, 2, 0, 3)
/* lanes 0 + 1 + 2, as (l0 + l1) + l2 */
#define F4_SUM3(a) (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 1) + wasm_f32x4_extract_lane(a, 2))
#define F4_FROM_I32X4(a) wasm_f32x4_convert_i32x4(a)

#define I32X4_LOAD(p) wasm_v128_load(p)
#define I32X4_STORE(p, v) wasm_v128_store(p, v)
#define I32X4_SPLAT(x) wasm_i32x4_splat(x)
#define I32X4_ADD(a, b) wasm_i32x4_add(a, b)
#define I32X4_SUB(a, b) wasm_i32x4_sub(a, b)
#define I32X4_GT(a, b) wasm_i32x4_gt(a, b)
/* truncation toward zero of lanes inside the int32 range */
#define I32X4_TRUNC_F4(a) wasm_i32x4_trunc_sat_f32x4(a)
/* lanes 0..2 into p[0..2] (p has room for 4): in wasm three extracts cost less than a store and reloads */
#define I32X4_STORE_XYZ(p, v)                                                                                       \
    ((p)[0] = wasm_i32x4_extract_lane(v, 0), (p)[1] = wasm_i32x4_extract_lane(v, 1),                               \
     (p)[2] = wasm_i32x4_extract_lane(v, 2))
/* the low four int16 lanes of a, zero-extended (read as unsigned) */
#define I32X4_FROM_U16_LO(a) wasm_u32x4_extend_low_u16x8(a)

#define I16X8_LOAD(p) wasm_v128_load(p)
#define I16X8_STORE(p, v) wasm_v128_store(p, v)
#define I16X8_SPLAT(x) wasm_i16x8_splat(x)
#define I16X8_MIN(a, b) wasm_i16x8_min(a, b)
#define I16X8_ADD(a, b) wasm_i16x8_add(a, b)
#define I16X8_NOT(a) wasm_v128_not(a)
/* lanes 4..7 then 0..3 */
#define I16X8_SWAP_HALVES(a) wasm_i64x2_shuffle(a, a, 1, 0)
/* a's then b's int32 lanes, narrowed with signed saturation */
#define I16X8_NARROW_I32X4(a, b) wasm_i16x8_narrow_i32x4(a, b)
/* lane `lane` (a constant) set to x */
#define I16X8_SET_LANE(a, lane, x) wasm_i16x8_replace_lane(a, lane, (int16_t)(x))

#elif defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 f4;
typedef __m128i i32x4;
typedef __m128i i16x8;
#define F4_LOAD(p) _mm_loadu_ps(p)
#define F4_STORE(p, v) _mm_storeu_ps(p, v)
#define F4_MIN(a, b) _mm_min_ps(a, b)
#define F4_MAX(a, b) _mm_max_ps(a, b)
#define F4_ADD(a, b) _mm_add_ps(a, b)
#define F4_SUB(a, b) _mm_sub_ps(a, b)
#define F4_MUL(a, b) _mm_mul_ps(a, b)
#define F4_SQRT(a) _mm_sqrt_ps(a)
#define F4_SET1(x) _mm_set1_ps(x)
#define F4_LE(a, b) _mm_cmple_ps(a, b)
#define F4_LT(a, b) _mm_cmplt_ps(a, b)
#define F4_AND(a, b) _mm_and_ps(a, b)
#define F4_OR(a, b) _mm_or_ps(a, b)
#define F4_ABS(a) _mm_andnot_ps(_mm_set1_ps(-0.0f), a)
#define F4_BITS(m) _mm_movemask_ps(m)
#define F4_UNPACK_LO(a, b) _mm_unpacklo_ps(a, b)
#define F4_UNPACK_HI(a, b) _mm_unpackhi_ps(a, b)
#define F4_HALVES_LO(a, b) _mm_movelh_ps(a, b)
#define F4_HALVES_HI(a, b) _mm_movehl_ps(b, a)
#define F4_SPLAT_W(a) _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 3, 3, 3))
#define F4_YZXW(a) _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 0, 2, 1))
/* lanes 0 + 1 + 2, as (l0 + l2) + l1: the SAH builder's costs were first written this way natively, and its trees
 * are kept bit for bit (on the 871k dragon the native and wasm trees differ by this order alone) */
static inline float f4_sum3(f4 a) {
    f4 t = _mm_add_ps(a, _mm_movehl_ps(a, a));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 1, 1, 1))));
}
#define F4_SUM3(a) f4_sum3(a)
#define F4_FROM_I32X4(a) _mm_cvtepi32_ps(a)

#define I32X4_LOAD(p) _mm_loadu_si128((const __m128i*)(const void*)(p))
#define I32X4_STORE(p, v) _mm_storeu_si128((__m128i*)(void*)(p), v)
#define I32X4_SPLAT(x) _mm_set1_epi32(x)
#define I32X4_ADD(a, b) _mm_add_epi32(a, b)
#define I32X4_SUB(a, b) _mm_sub_epi32(a, b)
#define I32X4_GT(a, b) _mm_cmpgt_epi32(a, b)
#define I32X4_TRUNC_F4(a) _mm_cvttps_epi32(a)
#define I32X4_STORE_XYZ(p, v) _mm_storeu_si128((__m128i*)(void*)(p), v)
#define I32X4_FROM_U16_LO(a) _mm_unpacklo_epi16(a, _mm_setzero_si128())

#define I16X8_LOAD(p) _mm_loadu_si128((const __m128i*)(const void*)(p))
#define I16X8_STORE(p, v) _mm_storeu_si128((__m128i*)(void*)(p), v)
#define I16X8_SPLAT(x) _mm_set1_epi16(x)
#define I16X8_MIN(a, b) _mm_min_epi16(a, b)
#define I16X8_ADD(a, b) _mm_add_epi16(a, b)
#define I16X8_NOT(a) _mm_xor_si128(a, _mm_set1_epi32(-1))
#define I16X8_SWAP_HALVES(a) _mm_shuffle_epi32(a, _MM_SHUFFLE(1, 0, 3, 2))
#define I16X8_NARROW_I32X4(a, b) _mm_packs_epi32(a, b)
#define I16X8_SET_LANE(a, lane, x) _mm_insert_epi16(a, (int)(uint16_t)(x), lane)

#else
/* Plain C lanes: masks are all-ones bit patterns as in the vector units, so the bitwise operations mean the same. */
typedef struct f4 {
    float v[4];
} f4;
typedef struct i32x4 {
    int32_t v[4];
} i32x4;
typedef struct i16x8 {
    int16_t v[8];
} i16x8;
static inline uint32_t f4_bits_of(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline float f4_of_bits(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
static inline float f4_mask_of(int c) { return f4_of_bits(c ? 0xffffffffu : 0u); }
static inline f4 f4_load(const float* p) { f4 r; memcpy(r.v, p, 16); return r; }
static inline f4 f4_min(f4 a, f4 b) {
    for (int i = 0; i < 4; i++) a.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i];
    return a;
}
static inline f4 f4_max(f4 a, f4 b) {
    for (int i = 0; i < 4; i++) a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
    return a;
}
static inline f4 f4_add(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] += b.v[i]; return a; }
static inline f4 f4_sub(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] -= b.v[i]; return a; }
static inline f4 f4_mul(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] *= b.v[i]; return a; }
static inline f4 f4_sqrt(f4 a) { for (int i = 0; i < 4; i++) a.v[i] = sqrtf(a.v[i]); return a; }
static inline f4 f4_set1(float x) { f4 r = {{x, x, x, x}}; return r; }
static inline f4 f4_le(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = f4_mask_of(a.v[i] <= b.v[i]); return a; }
static inline f4 f4_lt(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = f4_mask_of(a.v[i] < b.v[i]); return a; }
static inline f4 f4_and(f4 a, f4 b) {
    for (int i = 0; i < 4; i++) a.v[i] = f4_of_bits(f4_bits_of(a.v[i]) & f4_bits_of(b.v[i]));
    return a;
}
static inline f4 f4_or(f4 a, f4 b) {
    for (int i = 0; i < 4; i++) a.v[i] = f4_of_bits(f4_bits_of(a.v[i]) | f4_bits_of(b.v[i]));
    return a;
}
static inline f4 f4_abs(f4 a) {
    for (int i = 0; i < 4; i++) a.v[i] = f4_of_bits(f4_bits_of(a.v[i]) & 0x7fffffffu);
    return a;
}
static inline int f4_bits(f4 m) {
    int b = 0;
    for (int i = 0; i < 4; i++) b |= (int)(f4_bits_of(m.v[i]) >> 31) << i;
    return b;
}
static inline f4 f4_pick(f4 a, f4 b, int i0, int i1, int i2, int i3) {
    const float ab[8] = {a.v[0], a.v[1], a.v[2], a.v[3], b.v[0], b.v[1], b.v[2], b.v[3]};
    f4 r = {{ab[i0], ab[i1], ab[i2], ab[i3]}};
    return r;
}
static inline f4 f4_from_i32x4(i32x4 a) { f4 r; for (int i = 0; i < 4; i++) r.v[i] = (float)a.v[i]; return r; }
#define F4_LOAD(p) f4_load(p)
#define F4_STORE(p, x) memcpy(p, (x).v, 16)
#define F4_MIN(a, b) f4_min(a, b)
#define F4_MAX(a, b) f4_max(a, b)
#define F4_ADD(a, b) f4_add(a, b)
#define F4_SUB(a, b) f4_sub(a, b)
#define F4_MUL(a, b) f4_mul(a, b)
#define F4_SQRT(a) f4_sqrt(a)
#define F4_SET1(x) f4_set1(x)
#define F4_LE(a, b) f4_le(a, b)
#define F4_LT(a, b) f4_lt(a, b)
#define F4_AND(a, b) f4_and(a, b)
#define F4_OR(a, b) f4_or(a, b)
#define F4_ABS(a) f4_abs(a)
#define F4_BITS(m) f4_bits(m)
#define F4_UNPACK_LO(a, b) f4_pick(a, b, 0, 4, 1, 5)
#define F4_UNPACK_HI(a, b) f4_pick(a, b, 2, 6, 3, 7)
#define F4_HALVES_LO(a, b) f4_pick(a, b, 0, 1, 4, 5)
#define F4_HALVES_HI(a, b) f4_pick(a, b, 2, 3, 6, 7)
#define F4_SPLAT_W(a) f4_pick(a, a, 3, 3, 3, 3)
#define F4_YZXW(a) f4_pick(a, a, 1, 2, 0, 3)
#define F4_SUM3(a) ((a).v[0] + (a).v[1] + (a).v[2])
#define F4_FROM_I32X4(a) f4_from_i32x4(a)

static inline i32x4 i32x4_load(const void* p) { i32x4 r; memcpy(r.v, p, 16); return r; }
static inline i32x4 i32x4_splat(int32_t x) { i32x4 r = {{x, x, x, x}}; return r; }
/* wrapping like the vector units (through unsigned: no signed overflow) */
static inline i32x4 i32x4_add(i32x4 a, i32x4 b) {
    for (int i = 0; i < 4; i++) a.v[i] = (int32_t)((uint32_t)a.v[i] + (uint32_t)b.v[i]);
    return a;
}
static inline i32x4 i32x4_sub(i32x4 a, i32x4 b) {
    for (int i = 0; i < 4; i++) a.v[i] = (int32_t)((uint32_t)a.v[i] - (uint32_t)b.v[i]);
    return a;
}
static inline i32x4 i32x4_gt(i32x4 a, i32x4 b) {
    for (int i = 0; i < 4; i++) a.v[i] = a.v[i] > b.v[i] ? -1 : 0;
    return a;
}
static inline i32x4 i32x4_trunc_f4(f4 a) { i32x4 r; for (int i = 0; i < 4; i++) r.v[i] = (int32_t)a.v[i]; return r; }
static inline i32x4 i32x4_from_u16_lo(i16x8 a) {
    i32x4 r;
    for (int i = 0; i < 4; i++) r.v[i] = (uint16_t)a.v[i];
    return r;
}
#define I32X4_LOAD(p) i32x4_load(p)
#define I32X4_STORE(p, x) memcpy(p, (x).v, 16)
#define I32X4_SPLAT(x) i32x4_splat(x)
#define I32X4_ADD(a, b) i32x4_add(a, b)
#define I32X4_SUB(a, b) i32x4_sub(a, b)
#define I32X4_GT(a, b) i32x4_gt(a, b)
#define I32X4_TRUNC_F4(a) i32x4_trunc_f4(a)
#define I32X4_STORE_XYZ(p, x) memcpy(p, (x).v, 12)
#define I32X4_FROM_U16_LO(a) i32x4_from_u16_lo(a)

static inline i16x8 i16x8_load(const void* p) { i16x8 r; memcpy(r.v, p, 16); return r; }
static inline i16x8 i16x8_splat(int16_t x) { i16x8 r; for (int i = 0; i < 8; i++) r.v[i] = x; return r; }
static inline i16x8 i16x8_min(i16x8 a, i16x8 b) {
    for (int i = 0; i < 8; i++) a.v[i] = b.v[i] < a.v[i] ? b.v[i] : a.v[i];
    return a;
}
static inline i16x8 i16x8_add(i16x8 a, i16x8 b) {
    for (int i = 0; i < 8; i++) a.v[i] = (int16_t)(uint16_t)((uint16_t)a.v[i] + (uint16_t)b.v[i]);
    return a;
}
static inline i16x8 i16x8_not(i16x8 a) { for (int i = 0; i < 8; i++) a.v[i] = (int16_t)~a.v[i]; return a; }
static inline i16x8 i16x8_swap_halves(i16x8 a) {
    i16x8 r;
    for (int i = 0; i < 8; i++) r.v[i] = a.v[(i + 4) & 7];
    return r;
}
static inline int16_t i16_saturate(int32_t x) {
    return (int16_t)(x < INT16_MIN ? INT16_MIN : x > INT16_MAX ? INT16_MAX : x);
}
static inline i16x8 i16x8_narrow_i32x4(i32x4 a, i32x4 b) {
    i16x8 r;
    for (int i = 0; i < 4; i++) r.v[i] = i16_saturate(a.v[i]), r.v[4 + i] = i16_saturate(b.v[i]);
    return r;
}
static inline i16x8 i16x8_set_lane(i16x8 a, int lane, int16_t x) { a.v[lane] = x; return a; }
#define I16X8_LOAD(p) i16x8_load(p)
#define I16X8_STORE(p, x) memcpy(p, (x).v, 16)
#define I16X8_SPLAT(x) i16x8_splat(x)
#define I16X8_MIN(a, b) i16x8_min(a, b)
#define I16X8_ADD(a, b) i16x8_add(a, b)
#define I16X8_NOT(a) i16x8_not(a)
#define I16X8_SWAP_HALVES(a) i16x8_swap_halves(a)
#define I16X8_NARROW_I32X4(a, b) i16x8_narrow_i32x4(a, b)
#define I16X8_SET_LANE(a, lane, x) i16x8_set_lane(a, lane, (int16_t)(x))
#endif

/* Two double lanes through the compilers' vector extensions (f64x2 in wasm, SSE2 natively, pairs of doubles
 * otherwise); only the square root needs the target's instruction. Masks are the compares' results (all ones or 0). */
typedef double f64x2 __attribute__((vector_size(16)));
typedef int64_t f64x2_mask __attribute__((vector_size(16)));

static inline f64x2 f64x2_set1(double x) { return (f64x2){x, x}; }
static inline f64x2 f64x2_select(f64x2_mask m, f64x2 a, f64x2 b) {
    return (f64x2)(((f64x2_mask)a & m) | ((f64x2_mask)b & ~m));
}
static inline f64x2 f64x2_abs(f64x2 a) { return (f64x2)((f64x2_mask)a & (f64x2_mask){INT64_MAX, INT64_MAX}); }
static inline f64x2 f64x2_sqrt(f64x2 a) {
#if defined(__wasm_simd128__)
    return (f64x2)wasm_f64x2_sqrt((v128_t)a);
#elif defined(__SSE2__)
    return _mm_sqrt_pd(a);
#else
    return (f64x2){sqrt(a[0]), sqrt(a[1])};
#endif
}

#endif
