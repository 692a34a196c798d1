/* Four float lanes: wasm SIMD when built with -msimd128, SSE natively, scalar otherwise. Every operation is the
 * plain IEEE one per lane, so a lane gives bit for bit what the scalar expression gives (min/max are `a < b ? a
 * : b` and `a > b ? a : b` per lane, as in the scalar code that uses them). Masks come from the compares and are
 * only combined with F4_AND / F4_OR and read with F4_BITS (bit i = lane i). */
#ifndef SNUG_SIMD4_H
#define SNUG_SIMD4_H

#include <string.h>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
typedef v128_t f4;
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
#elif defined(__SSE__)
#include <xmmintrin.h>
typedef __m128 f4;
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
#else
#include <math.h>
typedef struct f4 {
    float v[4];
} f4;
static inline f4 f4_load(const float* p) { f4 r = {{p[0], p[1], p[2], p[3]}}; return r; }
static inline f4 f4_min(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i]; return a; }
static inline f4 f4_max(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i]; return a; }
static inline f4 f4_add(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] += b.v[i]; return a; }
static inline f4 f4_sub(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] -= b.v[i]; return a; }
static inline f4 f4_mul(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] *= b.v[i]; return a; }
static inline f4 f4_sqrt(f4 a) { for (int i = 0; i < 4; i++) a.v[i] = sqrtf(a.v[i]); return a; }
static inline f4 f4_set1(float x) { f4 r = {{x, x, x, x}}; return r; }
/* scalar masks are lanes of 1.0f (true) or 0.0f (false) */
static inline f4 f4_le(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] <= b.v[i] ? 1.0f : 0.0f; return a; }
static inline f4 f4_lt(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] < b.v[i] ? 1.0f : 0.0f; return a; }
static inline f4 f4_and(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] != 0.0f && b.v[i] != 0.0f ? 1.0f : 0.0f; return a; }
static inline f4 f4_or(f4 a, f4 b) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] != 0.0f || b.v[i] != 0.0f ? 1.0f : 0.0f; return a; }
static inline f4 f4_abs(f4 a) { for (int i = 0; i < 4; i++) a.v[i] = a.v[i] < 0.0f ? -a.v[i] : a.v[i]; return a; }
static inline int f4_bits(f4 m) { return (m.v[0] != 0.0f) | (m.v[1] != 0.0f) << 1 | (m.v[2] != 0.0f) << 2 | (m.v[3] != 0.0f) << 3; }
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
#endif

#endif
