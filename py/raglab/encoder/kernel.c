/* kernel.c - the forward pass of multilingual-e5-small, one file for every target.
 *
 * raglab compiles this file natively into shared libraries that Python loads with ctypes
 * (a baseline build, plus one built for the machine's own vector extensions that is used
 * only where the CPU has them) and to wasm32 for the browser. Every build gives the same
 * bits, so the file uses IEEE float/double arithmetic only, sums in one fixed order, has
 * its own exp and erf, no libc, no allocation, no threads and no global state. Compile
 * with -ffp-contract=off (x86 compilers would otherwise fuse a*b+c where FMA exists, and
 * wasm has none) and without -ffast-math; -fno-math-errno only lets gcc inline sqrt:
 *
 *   cc -O3 -ffp-contract=off -fno-math-errno -fPIC -shared kernel.c -o libencoder.so
 *   cc -O3 -mavx2 -mavx512f -mavx512bw -mavx512dq -mavx512vl ...same... -o libencoder-avx512.so
 *   clang --target=wasm32 -O3 -msimd128 -ffp-contract=off -fno-builtin -nostdlib -Wl,--no-entry \
 *         -Wl,--export-dynamic -Wl,--export=__heap_base kernel.c -o encoder.wasm
 *
 * -O3 matters: at -O2 the register tiles below do not stay in registers. -fno-builtin keeps
 * clang from turning a zeroing loop into a call to memset, which a module without libc lacks.
 *
 * The fixed order. The six weight products of a layer take their input as int8 (quantised
 * in blocks of 32, see quantise): a block's products with the 4-bit weights sum exactly in
 * int32, and each output accumulates its blocks in order in float32 (see tile), one output a
 * vector lane. Every other dot product runs in eight lanes: lane l sums elements l, l+8,
 * l+16, ... in order from zero, then the lanes are combined as
 * ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7)). Targets differ only in how many such sums run side
 * by side (the register tile) and in how the lanes sit in vector registers; the sequence of
 * roundings of each sum is the same everywhere. Element-wise steps (GELU, exp, softmax) are
 * evaluated on vectors lane by lane, the same operations as one element at a time.
 *
 * API (stable; sizes in bytes, ints int32; state, scratch, ids, out and vectors must be
 * 4-byte aligned, 16 recommended; the model bytes may have any alignment):
 *
 *   int32_t e5k_state_size(const uint8_t *model, int32_t model_len)
 *       Checks the model file's header and returns how many bytes of state e5k_init
 *       needs, or a negative error (E5K_ERR_*). The state is a 128-byte header plus a
 *       copy of the weights (still 4-bit, the layers' matrices regrouped 16 rows at a time;
 *       rows are expanded when used), so the model bytes may be freed after init. It does not check the digest: the caller does (sha256).
 *   int32_t e5k_init(const uint8_t *model, int32_t model_len, uint8_t *state)
 *       Fills the caller's state from the model file. Returns 0 or a negative error.
 *   int32_t e5k_dim(const uint8_t *state)             the vector length (384)
 *   int32_t e5k_max_tokens(const uint8_t *state)      the longest input, specials included (512)
 *   int32_t e5k_vocab(const uint8_t *state)           ids run from 0 to vocab-1
 *   int32_t e5k_scratch_size(const uint8_t *state, int32_t n_tokens)
 *       Bytes of scratch one e5k_encode call of n_tokens needs.
 *   int32_t e5k_encode(const uint8_t *state, const int32_t *ids, int32_t n,
 *                      uint8_t *scratch, float *out)
 *       ids: the full input, <s> ... </s> included (Python tokenizes and truncates).
 *       Writes the mean-pooled, L2-normalised vector (dim floats) to out. Returns 0 or a
 *       negative error. The state is read only, so calls with separate scratch buffers
 *       may run at the same time (re-entrant).
 *   void e5k_dots(const float *query, const float *vectors, int32_t n, int32_t dim, float *out)
 *       out[i] = dot(query, vectors[i*dim .. i*dim+dim)) in the kernel's lane order; for
 *       unit vectors that is the cosine, for ranking many chunks in one call.
 *   int32_t e5k_target(void)      the vector extensions this build uses (E5K_T_* bits)
 *   int32_t e5k_cpu(void)         the E5K_T_* extensions this CPU and OS run (x86; else 0)
 *       A library built for extensions the CPU lacks may crash on any call, so the
 *       caller asks e5k_cpu() of the baseline build (which uses none) and loads another
 *       build only when (its e5k_target() bits, named in its file name) & ~e5k_cpu() == 0.
 *
 * The model file (raglab's own, written by build.py; little-endian):
 *   0  "RLE5"   4  u32 version (1)   8  u32 hidden H   12 u32 layers   16 u32 heads
 *   20 u32 ffn  24 u32 vocab rows V   28 u32 max positions P   32 f32 layer-norm eps
 *   36 u32 tokenizer offset  40 u32 tokenizer length  44 u32 weights offset
 *   48 u32 weights length    52 12 zero bytes          64 32-byte sha256 of bytes [96, end)
 * The tokenizer section is read by Python only. The weights section holds, in order:
 *   word Q4[V][H], pos f32[P][H], type f32[H], emb.ln w,b f32[H]; then per layer
 *   q.w Q4[H][H] q.b, k.w k.b, v.w v.b, ao.w Q4[H][H] ao.b, aln.w aln.b,
 *   fi.w Q4[FF][H] fi.b f32[FF], fo.w Q4[H][FF] fo.b, oln.w oln.b (vectors f32[H]).
 * A Q4 row is blocks of 32 weights, each an fp16 scale d and 16 bytes; byte j holds
 * weight j in its low nibble and weight j+16 in its high nibble; a weight is (q-8)*d,
 * which float32 holds exactly (so any way of computing it gives the same bits).
 */
#include <stdint.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>    /* pmaddwd (the header only declares intrinsics: no libc) */
#endif

#define E5K_ERR_SHORT   (-1)  /* file shorter than its header or sections say */
#define E5K_ERR_MAGIC   (-2)  /* not an RLE5 model file */
#define E5K_ERR_VERSION (-3)  /* a format version this kernel does not read */
#define E5K_ERR_SHAPE   (-4)  /* dimensions or section sizes do not fit together */
#define E5K_ERR_INPUT   (-5)  /* token count out of range or an id outside the vocabulary */

#define E5K_T_AVX2   1        /* AVX and AVX2 */
#define E5K_T_AVX512 2        /* AVX-512 F, BW, DQ and VL */

#define LANES 8
#define QK 32
#define HEADER_WORDS 32   /* the state starts with 32 int32 words, then the weights */
#define MAX_ROWS 32       /* the most weight rows any target expands at once (TR) */
#define GROUP 16          /* weight rows regrouped together at init (see regroup) */
#define QPAD 32           /* attention runs over queries padded to a multiple of this */
#define PROB_LANES 16     /* attention's probabilities: at most 16 lanes (QB * VW) per row */

#define EXPORT __attribute__((visibility("default")))
#define INLINE static inline __attribute__((always_inline))

/* The target: VW floats to a vector, and a register tile of TR weight rows by TT tokens for
 * the matrix products: the fastest measured per target (more does not fit in registers). Any
 * shape gives the same bits; -DRV=... -DTT=... override it for such measurements. The wide
 * paths need __builtin_shufflevector (clang, gcc 12+): without it, halves of a register go
 * through memory and a wide build is slower than the baseline, so it compiles the 4-wide code. */
#if defined(__clang__) || __GNUC__ >= 12
#define SHUFFLEVECTOR 1
#else
#define SHUFFLEVECTOR 0
#endif
#if SHUFFLEVECTOR && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__)
#define VW 16
#ifndef RV
#define RV 2
#define TT 6
#endif
#define TARGET (E5K_T_AVX2 | E5K_T_AVX512)
#elif SHUFFLEVECTOR && defined(__AVX2__)
#define VW 8
#ifndef RV
#define RV 1
#define TT 6
#endif
#define TARGET E5K_T_AVX2
#elif defined(__wasm_simd128__)
#define VW 4
#ifndef RV
#define RV 4
#define TT 2
#endif
#define TARGET 0
#else                     /* SSE2 (the x86-64 baseline), and arm64 NEON (not measured) */
#define VW 4
#ifndef RV
#define RV 4
#define TT 2
#endif
#define TARGET 0
#endif
#define TR (RV * VW)      /* weight rows a tile covers */
_Static_assert(TR <= MAX_ROWS && (GROUP % TR == 0 || TR % GROUP == 0), "a tile's rows fit the buffer and its groups");

typedef union { uint32_t u; float f; } f32bits;

/* GCC/clang vector extensions: element-wise IEEE arithmetic, the same on every target.
 * The "u" types load and store unaligned. Shuffles spell out every lane. */
typedef float v4 __attribute__((vector_size(16)));
typedef float v4u __attribute__((vector_size(16), aligned(4), may_alias));
typedef float vf __attribute__((vector_size(4 * VW)));
typedef float vfu __attribute__((vector_size(4 * VW), aligned(4), may_alias));
typedef float vh __attribute__((vector_size(2 * VW)));           /* half a vf */
typedef double vd __attribute__((vector_size(4 * VW)));          /* VW/2 doubles */
typedef int64_t vl __attribute__((vector_size(4 * VW)));
typedef uint64_t vq __attribute__((vector_size(4 * VW)));
#define LOAD(p) (*(const v4u *)(p))
#define LOADV(p) (*(const vfu *)(p))
#define STOREV(p, v) (*(vfu *)(p) = (v))
typedef int32_t vi __attribute__((vector_size(4 * VW)));
typedef int16_t vs __attribute__((vector_size(4 * VW)));        /* 2 VW int16 */
typedef int16_t vsu __attribute__((vector_size(4 * VW), aligned(2), may_alias));
#define LOADS(p) (*(const vsu *)(p))
typedef int16_t i16x8 __attribute__((vector_size(16)));
typedef int16_t i16x8u __attribute__((vector_size(16), aligned(2), may_alias));
typedef int32_t i32x4 __attribute__((vector_size(16)));
#if SHUFFLEVECTOR
#define SHUF(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else                     /* older gcc: same-size shuffles of vf only (all SHUF uses are) */
#define SHUF(a, b, ...) __builtin_shuffle(a, b, (vi){__VA_ARGS__})
#endif
#define MASK_OF(a) __typeof__((a) < (a))     /* the integer vector of a's lane width */
#define SELECT(mask, a, b) ((__typeof__(a))(((MASK_OF(a))(a) & (mask)) | ((MASK_OF(a))(b) & ~(mask))))

static uint32_t rd_u32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static float rd_f32(const uint8_t *p) { f32bits b; b.u = rd_u32(p); return b.f; }

static float half_to_float(uint32_t h) {
    uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu;
    f32bits b;
    if (exp == 0) {                       /* zero or subnormal: man * 2^-24, exact */
        float v = (float)man * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    if (exp == 31) b.u = sign | 0x7F800000u | (man << 13);
    else b.u = sign | ((exp + 112u) << 23) | (man << 13);
    return b.f;
}

/* x in every lane (x is evaluated once per lane: pass plain values) */
#if VW == 16
#define SPLAT_F(x) ((vf){x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x})
#define SPLAT_D(x) ((vd){x, x, x, x, x, x, x, x})
#elif VW == 8
#define SPLAT_F(x) ((vf){x, x, x, x, x, x, x, x})
#define SPLAT_D(x) ((vd){x, x, x, x})
#else
#define SPLAT_F(x) ((vf){x, x, x, x})
#define SPLAT_D(x) ((vd){x, x})
#endif

/* t truncated toward zero, for |t| < 2^31: one instruction per target where there is one
 * (x86 and arm convert to int32 and back; wasm has f64x2.trunc), else adding and subtracting
 * 1.5*2^52 (which rounds to the nearest integer, exactly) and one step toward zero. */
typedef int32_t vhi __attribute__((vector_size(2 * VW)));        /* VW/2 int32 */
INLINE vd trunc_v(vd t) {
#if defined(__wasm_simd128__)
    return (vd)__builtin_wasm_trunc_f64x2((__typeof__(t))t);
#elif defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
    return __builtin_convertvector(__builtin_convertvector(t, vhi), vd);
#else
    const vd one = SPLAT_D(1.0), zero = SPLAT_D(0.0), big = SPLAT_D(6755399441055744.0);
    vd k = (t + big) - big;
    k = SELECT((t >= zero) & (k > t), k - one, k);
    return SELECT((t < zero) & (k < t), k + one, k);
#endif
}

/* The polynomials below are long chains of dependent operations, so NX vectors go through
 * them side by side (EACH: one statement for every vector) to keep the pipelines busy. */
#define NX 4
#define EACH for (i = 0; i < NX; i++)

/* exp(x) in double, NX * VW/2 at a time, in place: x = k ln2 + r with |r| <= ln2/2, a
 * degree-11 Taylor polynomial of e^r (relative error below 1e-13), scaled by 2^k through the
 * exponent bits; below -708 it is 0, above 709 it is exp(709). k is t = x log2(e) plus or
 * minus 0.5 (the sign of t: its sign bit), truncated; the exponent field of 2^k is the low
 * bits of the double k + 1023 + 2^52. All of it is exact, so the bits are those of the scalar
 * form k = (int)(t < 0 ? t - 0.5 : t + 0.5), s = 2^k. (t = -0 gives -0.5, truncated to
 * k = 0 as well.) */
INLINE void exp_v(vd *x) {
    const vd zero = SPLAT_D(0.0);
    const vl sign = (vl)SPLAT_D(-0.0), half = (vl)SPLAT_D(0.5);
    vl under[NX];
    vd t[NX], k[NX], r[NX], p[NX];
    int32_t i;
    EACH {
        under[i] = x[i] < SPLAT_D(-708.0);
        x[i] = SELECT(x[i] > SPLAT_D(709.0), SPLAT_D(709.0), x[i]);
        x[i] = SELECT(under[i], zero, x[i]);
        t[i] = x[i] * 1.4426950408889634;
        k[i] = trunc_v(t[i] + (vd)(((vl)t[i] & sign) | half));
        r[i] = (x[i] - k[i] * 6.93147180369123816490e-01) - k[i] * 1.90821492927058770002e-10;
        p[i] = SPLAT_D(1.0 / 39916800.0);
    }
    EACH p[i] = p[i] * r[i] + 1.0 / 3628800.0;
    EACH p[i] = p[i] * r[i] + 1.0 / 362880.0;
    EACH p[i] = p[i] * r[i] + 1.0 / 40320.0;
    EACH p[i] = p[i] * r[i] + 1.0 / 5040.0;
    EACH p[i] = p[i] * r[i] + 1.0 / 720.0;
    EACH p[i] = p[i] * r[i] + 1.0 / 120.0;
    EACH p[i] = p[i] * r[i] + 1.0 / 24.0;
    EACH p[i] = p[i] * r[i] + 1.0 / 6.0;
    EACH p[i] = p[i] * r[i] + 0.5;
    EACH p[i] = p[i] * r[i] + 1.0;
    EACH p[i] = p[i] * r[i] + 1.0;
    EACH {
        vq s = (vq)(k[i] + 4503599627371519.0) << 52;      /* 2^52 + 1023 + k: bits are k+1023 */
        x[i] = SELECT(under[i], zero, p[i] * (vd)s);
    }
}

/* GELU(x) = x/2 (1 + erf(x/sqrt2)) in double, NX * VW/2 at a time, in place; erf through the
 * Chebyshev fit of erfc from Numerical Recipes (fractional error below 1.2e-7 everywhere). */
INLINE void gelu_v(vd *d) {
    const vd one = SPLAT_D(1.0), zero = SPLAT_D(0.0);
    vd x[NX], z[NX], t[NX], p[NX], e[NX];
    int32_t i;
    EACH {
        x[i] = d[i] * 0.70710678118654752440;
        z[i] = SELECT(x[i] < zero, -x[i], x[i]);
        t[i] = one / (one + 0.5 * z[i]);
        p[i] = SPLAT_D(0.17087277);
    }
    EACH p[i] = p[i] * t[i] - 0.82215223;
    EACH p[i] = p[i] * t[i] + 1.48851587;
    EACH p[i] = p[i] * t[i] - 1.13520398;
    EACH p[i] = p[i] * t[i] + 0.27886807;
    EACH p[i] = p[i] * t[i] - 0.18628806;
    EACH p[i] = p[i] * t[i] + 0.09678418;
    EACH p[i] = p[i] * t[i] + 0.37409196;
    EACH p[i] = p[i] * t[i] + 1.00002368;
    EACH p[i] = p[i] * t[i] - 1.26551223;
    EACH e[i] = -z[i] * z[i] + p[i];
    exp_v(e);
    EACH {
        vd erfc = t[i] * e[i];
        d[i] = 0.5 * d[i] * (one + SELECT(x[i] < zero, erfc - one, one - erfc));
    }
}

/* A float vector's halves (to double and back: exact one way, rounded to nearest the other).
 * Shuffles keep them in registers; the union (older gcc) goes through memory. */
#if SHUFFLEVECTOR
#if VW == 16
#define LO(v) __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7)
#define HI(v) __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15)
#define JOIN(a, b) __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#elif VW == 8
#define LO(v) __builtin_shufflevector(v, v, 0, 1, 2, 3)
#define HI(v) __builtin_shufflevector(v, v, 4, 5, 6, 7)
#define JOIN(a, b) __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7)
#else
#define LO(v) __builtin_shufflevector(v, v, 0, 1)
#define HI(v) __builtin_shufflevector(v, v, 2, 3)
#define JOIN(a, b) __builtin_shufflevector(a, b, 0, 1, 2, 3)
#endif
static vh lo_half(vf v) { return LO(v); }
static vh hi_half(vf v) { return HI(v); }
static vf join(vh a, vh b) { return JOIN(a, b); }
#else
typedef union { vf v; vh h[2]; } halves;
static vh lo_half(vf v) { halves u; u.v = v; return u.h[0]; }
static vh hi_half(vf v) { halves u; u.v = v; return u.h[1]; }
static vf join(vh a, vh b) { halves u; u.h[0] = a; u.h[1] = b; return u.v; }
#endif
#define TO_D(h) __builtin_convertvector(h, vd)
#define TO_F(d) __builtin_convertvector(d, vh)

/* GELU over n floats in place (n a multiple of NX * VW / 2): (float)gelu((double)x). */
__attribute__((noinline)) static void gelu_all(float *a, int32_t n) {
    int32_t i, j;
    vd d[NX];
    for (i = 0; i < n; i += NX * VW / 2) {
        for (j = 0; j < NX / 2; j++) {
            vf x = LOADV(a + i + j * VW);
            d[2 * j] = TO_D(lo_half(x));
            d[2 * j + 1] = TO_D(hi_half(x));
        }
        gelu_v(d);
        for (j = 0; j < NX / 2; j++) STOREV(a + i + j * VW, join(TO_F(d[2 * j]), TO_F(d[2 * j + 1])));
    }
}

/* ---- the eight-lane sums of short vectors (layer norm, pooling, e5k_dots) ---- */

static float combine(v4 lo, v4 hi) {
    return ((lo[0] + lo[1]) + (lo[2] + lo[3])) + ((hi[0] + hi[1]) + (hi[2] + hi[3]));
}

/* Lanes to an array, the tail shorter than eight added to lanes 0.. in order, combined. */
static float finish(v4 lo, v4 hi, const float *a, const float *b, int32_t i, int32_t n) {
    float acc[LANES];
    int32_t l;
    for (l = 0; l < 4; l++) { acc[l] = lo[l]; acc[l + 4] = hi[l]; }
    for (l = 0; i < n; i++, l++) acc[l] += b ? a[i] * b[i] : a[i];
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

static float dot(const float *a, const float *b, int32_t n) {
    v4 lo = {0, 0, 0, 0}, hi = {0, 0, 0, 0};
    int32_t i = 0;
    for (; i + LANES <= n; i += LANES) {
        lo += LOAD(a + i) * LOAD(b + i);
        hi += LOAD(a + i + 4) * LOAD(b + i + 4);
    }
    return i == n ? combine(lo, hi) : finish(lo, hi, a, b, i, n);
}

static float lane_sum(const float *a, int32_t n) {
    v4 lo = {0, 0, 0, 0}, hi = {0, 0, 0, 0};
    int32_t i = 0;
    for (; i + LANES <= n; i += LANES) { lo += LOAD(a + i); hi += LOAD(a + i + 4); }
    return i == n ? combine(lo, hi) : finish(lo, hi, a, 0, i, n);
}

/* sum of (a[i] - mean)^2; n is a multiple of eight (the hidden size) */
static float sq_dev_sum(const float *a, float mean, int32_t n) {
    v4 lo = {0, 0, 0, 0}, hi = {0, 0, 0, 0}, m = {mean, mean, mean, mean}, d;
    int32_t i;
    for (i = 0; i + LANES <= n; i += LANES) {
        d = LOAD(a + i) - m; lo += d * d;
        d = LOAD(a + i + 4) - m; hi += d * d;
    }
    return combine(lo, hi);
}

/* The state: HEADER_WORDS int32 words, then a copy of the weights section, the layers'
 * matrices regrouped (see regroup). Every float array in that section starts at a multiple
 * of 4 bytes, so the kernel reads the copy in place (little-endian hosts only; e5k_init
 * refuses others). Weight matrices stay 4-bit and are expanded to int16 a few rows at a
 * time, just before use (the word embeddings to float32, one row a token). */
enum { S_MAGIC, S_H, S_NL, S_NH, S_FF, S_V, S_P, S_EPS, S_WLEN, S_POS, S_TYPE, S_ELNW,
       S_ELNB, S_LAYERS, S_LAYER_BYTES, S_SIZE };
/* Byte offsets within one layer block. */
enum { L_QW, L_QB, L_KW, L_KB, L_VW, L_VB, L_AOW, L_AOB, L_ALNW, L_ALNB,
       L_FIW, L_FIB, L_FOW, L_FOB, L_OLNW, L_OLNB, L_END };

static int32_t layer_offsets(int32_t H, int32_t FF, int32_t *o) {
    int32_t q = (H / QK) * 18 * H, off = 0, i;
    const int32_t sizes[L_END] = { q, 4 * H, q, 4 * H, q, 4 * H, q, 4 * H, 4 * H, 4 * H,
                                   (H / QK) * 18 * FF, 4 * FF, (FF / QK) * 18 * H, 4 * H,
                                   4 * H, 4 * H };
    for (i = 0; i < L_END; i++) { o[i] = off; off += sizes[i]; }
    return off;
}

/* Reads the header into hdr (S_* words); returns the weights' file offset or an error. */
static int32_t read_header(const uint8_t *m, int32_t len, int32_t *hdr) {
    int32_t H, FF, V, P, NL, NH, tok_off, tok_len, w_off, w_len, lo[L_END], word, off;
    f32bits probe;
    if (len < 96) return E5K_ERR_SHORT;
    if (m[0] != 'R' || m[1] != 'L' || m[2] != 'E' || m[3] != '5') return E5K_ERR_MAGIC;
    if (rd_u32(m + 4) != 1) return E5K_ERR_VERSION;
    probe.f = 1.0f;
    if (((const uint8_t *)&probe.u)[3] != 0x3F) return E5K_ERR_VERSION;   /* big-endian host */
    H = (int32_t)rd_u32(m + 8); NL = (int32_t)rd_u32(m + 12); NH = (int32_t)rd_u32(m + 16);
    FF = (int32_t)rd_u32(m + 20); V = (int32_t)rd_u32(m + 24); P = (int32_t)rd_u32(m + 28);
    if (H <= 0 || H > 4096 || H % QK || NL <= 0 || NL > 64 || NH <= 0 || H % NH ||
        (H / NH) % LANES || FF <= 0 || FF > 16384 || FF % QK || V <= 4 || V > 300000 ||
        P <= 2 || P > 4096)
        return E5K_ERR_SHAPE;
    tok_off = (int32_t)rd_u32(m + 36); tok_len = (int32_t)rd_u32(m + 40);
    w_off = (int32_t)rd_u32(m + 44); w_len = (int32_t)rd_u32(m + 48);
    word = V * (H / QK) * 18;
    hdr[S_POS] = word;
    hdr[S_TYPE] = hdr[S_POS] + 4 * P * H;
    hdr[S_ELNW] = hdr[S_TYPE] + 4 * H;
    hdr[S_ELNB] = hdr[S_ELNW] + 4 * H;
    hdr[S_LAYERS] = hdr[S_ELNB] + 4 * H;
    hdr[S_LAYER_BYTES] = layer_offsets(H, FF, lo);
    off = hdr[S_LAYERS] + NL * hdr[S_LAYER_BYTES];
    if (w_len != off || tok_off < 96 || tok_len < 0 || w_off < tok_off + tok_len || w_off % 4)
        return E5K_ERR_SHAPE;
    if (w_off > len || len - w_off < w_len) return E5K_ERR_SHORT;
    hdr[S_MAGIC] = 0x35454c52; hdr[S_H] = H; hdr[S_NL] = NL; hdr[S_NH] = NH; hdr[S_FF] = FF;
    hdr[S_V] = V; hdr[S_P] = P; hdr[S_WLEN] = w_len;
    { f32bits e; e.f = rd_f32(m + 32); hdr[S_EPS] = (int32_t)e.u; }
    hdr[S_SIZE] = 4 * HEADER_WORDS + w_len;
    return w_off;
}

EXPORT int32_t e5k_state_size(const uint8_t *model, int32_t model_len) {
    int32_t hdr[HEADER_WORDS];
    int32_t r = read_header(model, model_len, hdr);
    return r < 0 ? r : hdr[S_SIZE];
}

/* e5k_init stores the six weight matrices of each layer regrouped, GROUP rows at a time and
 * block by block, GROUP * 18 bytes a block: the rows' fp16 scales, then byte j (j = 0..15:
 * weight j in its low nibble, weight j + 16 in its high one) of every row of the group side
 * by side. VW rows' byte j are then VW consecutive bytes: one register of int16 pairs
 * (weight j, weight j + 16) that meets the input's pair (x_j, x_j+16) in pmaddwd. */
static void regroup(const uint8_t *src, uint8_t *dst, int32_t rows, int32_t n) {
    int32_t nb = n / QK, g, b, l, j;
    for (g = 0; g < rows / GROUP; g++)
        for (b = 0; b < nb; b++, dst += GROUP * 18)
            for (l = 0; l < GROUP; l++) {
                const uint8_t *s = src + ((g * GROUP + l) * nb + b) * 18;
                dst[2 * l] = s[0];
                dst[2 * l + 1] = s[1];
                for (j = 0; j < 16; j++) dst[2 * GROUP + j * GROUP + l] = s[2 + j];
            }
}

static void regroup_all(const uint8_t *src, uint8_t *dst, const int32_t *hdr) {
    int32_t H = hdr[S_H], FF = hdr[S_FF], lo[L_END], l, i;
    const int32_t which[6] = { L_QW, L_KW, L_VW, L_AOW, L_FIW, L_FOW };
    layer_offsets(H, FF, lo);
    for (l = 0; l < hdr[S_NL]; l++)
        for (i = 0; i < 6; i++) {
            int32_t at = hdr[S_LAYERS] + l * hdr[S_LAYER_BYTES] + lo[which[i]];
            regroup(src + at, dst + at, which[i] == L_FIW ? FF : H, which[i] == L_FOW ? FF : H);
        }
}

EXPORT int32_t e5k_init(const uint8_t *model, int32_t model_len, uint8_t *state) {
    int32_t *hdr = (int32_t *)state;
    int32_t r = read_header(model, model_len, hdr), i;
    uint8_t *w = state + 4 * HEADER_WORDS;
    if (r < 0) return r;
    for (i = S_SIZE + 1; i < HEADER_WORDS; i++) hdr[i] = 0;
    for (i = 0; i < hdr[S_WLEN]; i++) w[i] = model[r + i];
    regroup_all(model + r, w, hdr);
    return 0;
}

EXPORT int32_t e5k_dim(const uint8_t *state) { return ((const int32_t *)state)[S_H]; }
EXPORT int32_t e5k_max_tokens(const uint8_t *state) { return ((const int32_t *)state)[S_P]; }
EXPORT int32_t e5k_vocab(const uint8_t *state) { return ((const int32_t *)state)[S_V]; }
EXPORT int32_t e5k_target(void) { return TARGET; }

EXPORT int32_t e5k_cpu(void) {
#if defined(__x86_64__) || defined(__i386__)
    int32_t t = 0;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2")) {
        t |= E5K_T_AVX2;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
            t |= E5K_T_AVX512;
    }
    return t;
#else
    return 0;
#endif
}

static int32_t padded(int32_t n) { return (n + QPAD - 1) / QPAD * QPAD; }

EXPORT int32_t e5k_scratch_size(const uint8_t *state, int32_t n) {
    const int32_t *hdr = (const int32_t *)state;
    int32_t np = padded(n);
    int32_t wide = hdr[S_FF] > hdr[S_H] ? hdr[S_FF] : hdr[S_H];
    /* ... + the expanded rows (int16 and scales, within MAX_ROWS floats a column) + a
     * quantised input (n * wide int16 and n * wide / QK scales) */
    return 4 * (6 * np * hdr[S_H] + n * hdr[S_FF] + PROB_LANES * n + hdr[S_H] + MAX_ROWS * wide +
                n * wide / 2 + n * wide / QK);
}

/* ---- 4-bit rows to float32 (the word embeddings) and int16 (the weight products) ---- */

/* Interleaving bytes (punpcklbw): bytes a[i..i+7] with b's, or with zeros (ZIP8: eight uint16). */
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint8_t u8x16u __attribute__((vector_size(16), aligned(1), may_alias));
typedef uint16_t u16x8 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));
#if SHUFFLEVECTOR
#define ZIP8B(a, b, i) __builtin_shufflevector(a, b, i, 16 + i, i + 1, 17 + i, i + 2, 18 + i, \
        i + 3, 19 + i, i + 4, 20 + i, i + 5, 21 + i, i + 6, 22 + i, i + 7, 23 + i)
#define ZIP16(a, i) __builtin_shufflevector(a, (u16x8){0}, i, 8 + i, i + 1, 9 + i, i + 2, 10 + i, i + 3, 11 + i)
#else
#define ZIP8B(a, b, i) __builtin_shuffle(a, b, (u8x16){i, 16 + i, i + 1, 17 + i, i + 2, 18 + i, \
        i + 3, 19 + i, i + 4, 20 + i, i + 5, 21 + i, i + 6, 22 + i, i + 7, 23 + i})
#define ZIP16(a, i) __builtin_shuffle(a, (u16x8){0}, (u16x8){i, 8 + i, i + 1, 9 + i, i + 2, 10 + i, i + 3, 11 + i})
#endif
#define ZIP8(a, i) ZIP8B(a, (u8x16){0}, i)

/* Eight weights of a Q4 block (bytes q[0..7], low or high nibbles) times d. */
#if VW >= 8
typedef uint8_t u8x8 __attribute__((vector_size(8)));
typedef uint8_t u8x8u __attribute__((vector_size(8), aligned(1), may_alias));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef float f32x8u __attribute__((vector_size(32), aligned(4), may_alias));
INLINE void expand8(const uint8_t *q, int32_t high, float d, float *dst) {
    u8x8 b = *(const u8x8u *)q;
    i32x8 v = __builtin_convertvector(high ? b >> 4 : b & 15, i32x8) - 8;
    *(f32x8u *)dst = __builtin_convertvector(v, f32x8) * d;
}
#else
/* Without a byte-to-int32 conversion instruction (SSE2, wasm): interleaving with zeros twice
 * (punpcklbw/punpcklwd) puts each nibble in the low byte of a 32-bit lane; with the exponent
 * bits of 2^23 that lane is the float 2^23 + q, and subtracting 2^23 + 8 leaves q - 8 exactly. */
#define FOUR(h, i, d) (((v4)((u32x4)ZIP16(h, i) | 0x4B000000u) - 8388616.0f) * (d))
INLINE void expand32(const uint8_t *q, float d, float *dst, int32_t stride) {
    u8x16 b = *(const u8x16u *)q, lo = b & 15, hi = b >> 4;
    u16x8 l0 = (u16x8)ZIP8(lo, 0), l1 = (u16x8)ZIP8(lo, 8), h0 = (u16x8)ZIP8(hi, 0), h1 = (u16x8)ZIP8(hi, 8);
    *(v4u *)dst = FOUR(l0, 0, d);
    *(v4u *)(dst + 4) = FOUR(l0, 4, d);
    *(v4u *)(dst + stride) = FOUR(l1, 0, d);
    *(v4u *)(dst + stride + 4) = FOUR(l1, 4, d);
    *(v4u *)(dst + 2 * stride) = FOUR(h0, 0, d);
    *(v4u *)(dst + 2 * stride + 4) = FOUR(h0, 4, d);
    *(v4u *)(dst + 3 * stride) = FOUR(h1, 0, d);
    *(v4u *)(dst + 3 * stride + 4) = FOUR(h1, 4, d);
}
#endif

/* One row of n weights into dst with a stride between its groups of eight: group g lands at
 * dst + g * stride. Group 4b+c of block b is weights 8c..8c+7 of that block. */
static void expand_row(const uint8_t *src, float *dst, int32_t n, int32_t stride) {
    int32_t b;
    for (b = 0; b < n / QK; b++, src += 18, dst += 4 * stride) {
        float d = half_to_float((uint32_t)src[0] | ((uint32_t)src[1] << 8));
#if VW >= 8
        expand8(src + 2, 0, d, dst);
        expand8(src + 10, 0, d, dst + stride);
        expand8(src + 2, 1, d, dst + 2 * stride);
        expand8(src + 10, 1, d, dst + 3 * stride);
#else
        expand32(src + 2, d, dst, stride);
#endif
    }
}

/* ---- matrix products: int8 activations against the 4-bit weights ---- */

/* VW bytes zero-extended to VW int32 lanes (vpmovzxbd; else interleaving with zeros twice:
 * gcc's own conversion of a byte vector goes byte by byte). */
typedef int32_t i32a __attribute__((aligned(4), may_alias));
INLINE vi widen(const uint8_t *p) {
#if VW == 16
    return (vi)_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p));
#elif VW == 8
    return (vi)_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
#else
    u8x16 b = (u8x16)(i32x4){*(const i32a *)p, 0, 0, 0};
    return (vi)ZIP16((u16x8)ZIP8(b, 0), 0);
#endif
}

/* Rows o .. o + TR - 1 of a regrouped matrix of n columns, as int16: for block b and byte j,
 * RV registers of VW rows' pairs at buf + ((b * 16 + j) * RV + v) * 2 VW; the scales of
 * block b, as float, at d + (b * RV + v) * VW. */
/* VW fp16 scales to float, as half_to_float (every step is exact). */
typedef int32_t i32u __attribute__((aligned(1), may_alias));
INLINE vf halves_to_float(const uint8_t *p) {
#if VW == 16
    vi h = (vi)_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));
#elif VW == 8
    vi h = (vi)_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
#else
    i32x4 pair = {*(const i32u *)p, *(const i32u *)(p + 4), 0, 0};
    vi h = (vi)ZIP16((u16x8)pair, 0);
#endif
    vi e = (h >> 10) & 31, man = h & 0x3FF, sign = (h & 0x8000) << 16;
    vf sub = __builtin_convertvector(man, vf) * 5.9604644775390625e-8f;
    vi big = sign | ((e + 112) << 23) | (man << 13);
    big = SELECT(e == 31, sign | 0x7F800000 | (man << 13), big);
    return SELECT(e == 0, SELECT(sign != 0, -sub, sub), (vf)big);
}

static void expand_rows(const uint8_t *W, int32_t o, int32_t n, int16_t *buf, float *d) {
    int32_t nb = n / QK, b, j, v;
    for (b = 0; b < nb; b++)
        for (v = 0; v < RV; v++) {
            int32_t row = o + v * VW, at = row % GROUP;
            const uint8_t *g = W + ((row / GROUP) * nb + b) * GROUP * 18;
            STOREV(d + (b * RV + v) * VW, halves_to_float(g + 2 * at));
#if VW == 4 && RV % 4 == 0
            /* four registers at once from one load of the group's 16 bytes j */
            if (at) continue;
            for (j = 0; j < 16; j++) {
                u8x16 q = *(const u8x16u *)(g + 2 * GROUP + j * GROUP), lo = q & 15, hi = q >> 4;
                u8x16 p0 = ZIP8B(lo, hi, 0), p1 = ZIP8B(lo, hi, 8);
                int16_t *out = buf + ((b * 16 + j) * RV + v) * 2 * VW;
                *(vsu *)out = (vs)ZIP8(p0, 0) - 8;
                *(vsu *)(out + 2 * VW) = (vs)ZIP8(p0, 8) - 8;
                *(vsu *)(out + 4 * VW) = (vs)ZIP8(p1, 0) - 8;
                *(vsu *)(out + 6 * VW) = (vs)ZIP8(p1, 8) - 8;
            }
#else
            for (j = 0; j < 16; j++) {
                vi u = widen(g + 2 * GROUP + j * GROUP + at);
                *(vsu *)(buf + ((b * 16 + j) * RV + v) * 2 * VW) = (vs)((u & 15) | ((u >> 4) << 16)) - 8;
            }
#endif
        }
}

/* The input of every weight product is quantised in blocks of 32 (the weights' blocks), in
 * float32: m = max |x| over the block, d = m / 127, q = x * (127 / m) rounded to the nearest
 * integer, ties to even (m = 0: d = 0 and every q 0). |q| <= 127 since m * fl(127 / m) rounds
 * to at most 127. The rounding adds 1.5 * 2^23 and reads the integer off the low bits of the
 * sum (exact below 2^22), so no target converts a float to an int (wasm would scalarise it).
 * The block is stored in the weights' pair order: x_0, x_16, x_1, x_17, ... */
static void quantise(const float *x, int16_t *q, float *d, int32_t n) {
    int32_t b, j, l;
    for (b = 0; b < n / QK; b++, x += QK, q += QK) {
        v4 m = {0, 0, 0, 0}, s;
        float mx;
        for (j = 0; j < QK; j += 4) {
            v4 a = LOAD(x + j);
            a = SELECT(a < 0.0f, -a, a);
            m = SELECT(a > m, a, m);
        }
        mx = m[0] > m[1] ? m[0] : m[1];
        mx = mx > m[2] ? mx : m[2];
        mx = mx > m[3] ? mx : m[3];
        d[b] = mx / 127.0f;
        if (!(mx > 0.0f)) {
            for (j = 0; j < QK; j++) q[j] = 0;
            continue;
        }
        s = (v4){0, 0, 0, 0} + 127.0f / mx;
        for (j = 0; j < QK / 2; j += 4) {
            i32x4 lo = (i32x4)(LOAD(x + j) * s + 12582912.0f) - 0x4B400000;
            i32x4 hi = (i32x4)(LOAD(x + j + 16) * s + 12582912.0f) - 0x4B400000;
            for (l = 0; l < 4; l++) {
                q[2 * (j + l)] = (int16_t)lo[l];
                q[2 * (j + l) + 1] = (int16_t)hi[l];
            }
        }
    }
}

/* 2 VW int16 products, adjacent pairs added: VW int32 lanes (pmaddwd; wasm's dot_i16x8_s). */
INLINE vi madd(vs a, vs b) {
#if VW == 16
    return (vi)_mm512_madd_epi16((__m512i)a, (__m512i)b);
#elif VW == 8
    return (vi)_mm256_madd_epi16((__m256i)a, (__m256i)b);
#elif defined(__wasm_simd128__)
    return (vi)__builtin_wasm_dot_s_i32x4_i16x8(a, b);
#elif defined(__SSE2__)
    return (vi)_mm_madd_epi16((__m128i)a, (__m128i)b);
#else
    return __builtin_convertvector(SHUF(a, a, 0, 2, 4, 6), vi) * __builtin_convertvector(SHUF(b, b, 0, 2, 4, 6), vi)
         + __builtin_convertvector(SHUF(a, a, 1, 3, 5, 7), vi) * __builtin_convertvector(SHUF(b, b, 1, 3, 5, 7), vi);
#endif
}

/* One register tile: TR expanded rows (w, scales wd) against T quantised tokens (x, scales
 * xd), one (row, token) pair a lane. The fixed order, the same in every lane of every
 * target: from acc = 0, block by block, acc = acc + (float)S * (dw * dx), where S is the
 * block's integer sum (exact in int32: |S| <= 32 * 8 * 127). Totals of (row r, token t) to
 * res[t * TR + r]. */
INLINE void tile(const int16_t *w, const float *wd, const int16_t *x, const float *xd, int32_t nin,
                 float *res, const int32_t T) {
    const int32_t nb = nin / QK;
    vf acc[TT][RV];
    int32_t b, j, t, v;
    for (t = 0; t < T; t++)
        for (v = 0; v < RV; v++) acc[t][v] = SPLAT_F(0.0f);
    for (b = 0; b < nb; b++, wd += RV * VW) {
        vi a[TT][RV];
        for (t = 0; t < T; t++)
            for (v = 0; v < RV; v++) a[t][v] = (vi){0};
        for (j = 0; j < 16; j++, w += RV * 2 * VW) {
            vs wv[RV];
            for (v = 0; v < RV; v++) wv[v] = LOADS(w + v * 2 * VW);
            for (t = 0; t < T; t++) {
                vs xs = (vs)((vi){0} + *(const i32a *)(x + t * nin + b * QK + 2 * j));
                for (v = 0; v < RV; v++) a[t][v] += madd(wv[v], xs);
            }
        }
        for (t = 0; t < T; t++) {
            float dx = xd[t * nb + b];
            for (v = 0; v < RV; v++) acc[t][v] += __builtin_convertvector(a[t][v], vf) * (LOADV(wd + v * VW) * SPLAT_F(dx));
        }
    }
    for (t = 0; t < T; t++)
        for (v = 0; v < RV; v++) STOREV(res + (t * RV + v) * VW, acc[t][v]);
}

/* y[t][o] = dot(W[o], x[t]) + b[o] for the quantised input (xq, xd), stored at
 * y + t * ys_t + o * ys_o. TR rows of the regrouped W are expanded at a time into buf (their
 * scales after TR * nin int16) and meet TT tokens at a time (TT / 2 or 1 for the rest). */
static void linear(const uint8_t *W, const float *b, const int16_t *xq, const float *xd, float *y,
                   int32_t ys_t, int32_t ys_o, int16_t *buf, int32_t n, int32_t nout, int32_t nin) {
    int32_t o, t, r, j, m, nb = nin / QK;
    float *wd = (float *)(buf + TR * nin), res[TT * TR];
    for (o = 0; o < nout; o += TR) {
        expand_rows(W, o, nin, buf, wd);
        for (t = 0; t < n; t += m) {
            m = n - t >= TT ? TT : n - t >= TT / 2 && TT / 2 > 1 ? TT / 2 : 1;
            if (m == TT) tile(buf, wd, xq + t * nin, xd + t * nb, nin, res, TT);
            else if (m > 1) tile(buf, wd, xq + t * nin, xd + t * nb, nin, res, TT / 2);
            else tile(buf, wd, xq + t * nin, xd + t * nb, nin, res, 1);
            for (j = 0; j < m; j++)
                for (r = 0; r < TR; r++) y[(t + j) * ys_t + (o + r) * ys_o] = res[j * TR + r] + b[o + r];
        }
    }
}

/* x[t] = LayerNorm(x[t] + add[t]) (add may be 0), in place. */
static void add_norm(float *x, const float *add, const float *w, const float *b,
                     int32_t n, int32_t H, float eps) {
    int32_t t, i;
    for (t = 0; t < n; t++) {
        float *r = x + t * H, mean, inv;
        if (add) for (i = 0; i < H; i++) r[i] += add[t * H + i];
        mean = lane_sum(r, H) / (float)H;
        inv = 1.0f / __builtin_sqrtf(sq_dev_sum(r, mean, H) / (float)H + eps);
        for (i = 0; i < H; i++) r[i] = ((r[i] - mean) * inv) * w[i] + b[i];
    }
}

/* Softmax attention, every token attending to every token of the one input. Queries run
 * VW at a time, one per lane: qt holds q transposed (qt[c * np + t] = q[t][c]), so a lane
 * computes one query's scores, maximum, exponentials, total and context in exactly the order
 * a single query would. QB blocks of VW queries share each pass over the values, CE values
 * at a time (QB * CE registers). prob holds QB blocks of n rows of VW lanes. */
#if VW == 16
#define QB 1
#define CE 8
#else
#define QB 2
#define CE 4
#endif
__attribute__((noinline)) static void attention(const float *qt, const float *k, const float *v, float *ctx,
                                                float *prob, int32_t n, int32_t np, int32_t H, int32_t NH) {
    int32_t hd = H / NH, tb, h, j, e, c, l, u, b, i;
    float sc = 1.0f / __builtin_sqrtf((float)hd), out[CE * VW];
    vf scale = SPLAT_F(sc);
    for (h = 0; h < NH; h++)
        for (tb = 0; tb < n; tb += QB * VW) {
            for (b = 0; b < QB; b++) {      /* scores, softmax: one block of VW queries */
                const float *qh = qt + h * hd * np + tb + b * VW;
                float *pb = prob + b * n * VW;
                vf mx = SPLAT_F(0.0f), total = SPLAT_F(0.0f), s[LANES];
                for (j = 0; j < n; j++) {    /* dot(q, k[j]) in eight lanes, scaled; the maximum */
                    const float *kj = k + j * H + h * hd;
                    vf sj;
                    for (l = 0; l < LANES; l++) s[l] = SPLAT_F(0.0f) + LOADV(qh + l * np) * SPLAT_F(kj[l]);
                    for (c = LANES; c < hd; c += LANES)
                        for (l = 0; l < LANES; l++) s[l] += LOADV(qh + (c + l) * np) * SPLAT_F(kj[c + l]);
                    sj = (((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))) * scale;
                    mx = j == 0 ? sj : SELECT(sj > mx, sj, mx);
                    STOREV(pb + j * VW, sj);
                }
                for (j = 0; j < n; j += NX / 2) {  /* exp(score - max), NX/2 rows at a time; the total */
                    vd d[NX];
                    for (i = 0; i < NX / 2; i++) {
                        vf x = SPLAT_F(0.0f);
                        if (j + i < n) x = LOADV(pb + (j + i) * VW) - mx;
                        d[2 * i] = TO_D(lo_half(x));
                        d[2 * i + 1] = TO_D(hi_half(x));
                    }
                    exp_v(d);
                    for (i = 0; i < NX / 2 && j + i < n; i++) {
                        vf x = join(TO_F(d[2 * i]), TO_F(d[2 * i + 1]));
                        STOREV(pb + (j + i) * VW, x);
                        total += x;
                    }
                }
                for (j = 0; j < n; j++) STOREV(pb + j * VW, LOADV(pb + j * VW) / total);
            }
            for (c = 0; c < hd; c += CE) {   /* context: sum over j of p[j] v[j], in order */
                const float *vc = v + h * hd + c;
                vf a[QB][CE];
                for (b = 0; b < QB; b++)
                    for (e = 0; e < CE; e++) a[b][e] = LOADV(prob + b * n * VW) * SPLAT_F(vc[e]);
                for (j = 1; j < n; j++)
                    for (b = 0; b < QB; b++) {
                        vf p = LOADV(prob + (b * n + j) * VW);
                        for (e = 0; e < CE; e++) a[b][e] += p * SPLAT_F(vc[j * H + e]);
                    }
                for (b = 0; b < QB; b++) {
                    for (e = 0; e < CE; e++) STOREV(out + e * VW, a[b][e]);
                    for (u = 0; u < VW && tb + b * VW + u < n; u++)
                        for (e = 0; e < CE; e++) ctx[(tb + b * VW + u) * H + h * hd + c + e] = out[e * VW + u];
                }
            }
        }
}

EXPORT int32_t e5k_encode(const uint8_t *state, const int32_t *ids, int32_t n,
                          uint8_t *scratch, float *out) {
    const int32_t *hdr = (const int32_t *)state;
    const uint8_t *w = state + 4 * HEADER_WORDS;
    int32_t H = hdr[S_H], FF = hdr[S_FF], NH = hdr[S_NH], np = padded(n), t, i, l, lo[L_END];
    f32bits epsb;
    float eps, *x, *q, *k, *v, *ctx, *tmp, *mid, *prob, *pooled, *xd, norm;
    int16_t *buf, *xq;
    const float *pos = (const float *)(w + hdr[S_POS]), *type = (const float *)(w + hdr[S_TYPE]);
    if (n < 1 || n > hdr[S_P]) return E5K_ERR_INPUT;
    for (t = 0; t < n; t++) if (ids[t] < 0 || ids[t] >= hdr[S_V]) return E5K_ERR_INPUT;
    epsb.u = (uint32_t)hdr[S_EPS]; eps = epsb.f;
    x = (float *)scratch; q = x + np * H; k = q + np * H; v = k + np * H; ctx = v + np * H;
    tmp = ctx + np * H; mid = tmp + np * H; prob = mid + n * FF; pooled = prob + PROB_LANES * n;
    buf = (int16_t *)(pooled + H);
    xq = buf + 2 * MAX_ROWS * (FF > H ? FF : H);
    xd = (float *)(xq + n * (FF > H ? FF : H));
    for (i = 0; i < np * H; i++) q[i] = 0.0f;   /* the padding queries: zeros, never read out */

    /* embeddings: (word + position) + type 0, then LayerNorm */
    for (t = 0; t < n; t++) {
        float *r = x + t * H;
        expand_row(w + ids[t] * (H / QK) * 18, r, H, LANES);
        for (i = 0; i < H; i++) r[i] = (r[i] + pos[t * H + i]) + type[i];
    }
    add_norm(x, 0, (const float *)(w + hdr[S_ELNW]), (const float *)(w + hdr[S_ELNB]), n, H, eps);

    layer_offsets(H, FF, lo);
    for (l = 0; l < hdr[S_NL]; l++) {
        const uint8_t *L = w + hdr[S_LAYERS] + l * hdr[S_LAYER_BYTES];
#define VEC(name) ((const float *)(L + lo[name]))
        quantise(x, xq, xd, n * H);
        linear(L + lo[L_QW], VEC(L_QB), xq, xd, q, 1, np, buf, n, H, H);    /* q transposed */
        linear(L + lo[L_KW], VEC(L_KB), xq, xd, k, H, 1, buf, n, H, H);
        linear(L + lo[L_VW], VEC(L_VB), xq, xd, v, H, 1, buf, n, H, H);
        attention(q, k, v, ctx, prob, n, np, H, NH);
        quantise(ctx, xq, xd, n * H);
        linear(L + lo[L_AOW], VEC(L_AOB), xq, xd, tmp, H, 1, buf, n, H, H);
        add_norm(x, tmp, VEC(L_ALNW), VEC(L_ALNB), n, H, eps);
        quantise(x, xq, xd, n * H);
        linear(L + lo[L_FIW], VEC(L_FIB), xq, xd, mid, FF, 1, buf, n, FF, H);
        gelu_all(mid, n * FF);
        quantise(mid, xq, xd, n * FF);
        linear(L + lo[L_FOW], VEC(L_FOB), xq, xd, tmp, H, 1, buf, n, H, FF);
        add_norm(x, tmp, VEC(L_OLNW), VEC(L_OLNB), n, H, eps);
#undef VEC
    }

    /* mean over every token (<s> and </s> included), then unit length */
    for (i = 0; i < H; i++) {
        float acc = x[i];
        for (t = 1; t < n; t++) acc += x[t * H + i];
        pooled[i] = acc / (float)n;
    }
    norm = __builtin_sqrtf(dot(pooled, pooled, H));
    if (!(norm > 1e-12f)) norm = 1e-12f;
    for (i = 0; i < H; i++) out[i] = pooled[i] / norm;
    return 0;
}

EXPORT void e5k_dots(const float *query, const float *vectors, int32_t n, int32_t dim, float *out) {
    int32_t i;
    for (i = 0; i < n; i++) out[i] = dot(query, vectors + i * dim, dim);
}
