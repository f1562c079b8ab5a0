/* encoder.c - the forward pass of multilingual-e5-small, one file for every target.
 *
 * raglab compiles this file twice: natively into a shared library that Python loads with
 * ctypes, and to wasm32 for the browser. Both must give the same bits, so the file uses
 * IEEE float/double arithmetic only, sums in one fixed order (eight explicit lanes,
 * combined as ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7))), its own exp and erf, no libc, no
 * allocation, no threads and no global state. Compile with -ffp-contract=off and without
 * -ffast-math on every compiler (-fno-math-errno only lets gcc inline sqrt; -msimd128 is
 * optional; gcc -O2/-O3/-march=native, clang native, wasm32 scalar and simd128 were checked
 * to give the same bits):
 *
 *   cc -O3 -ffp-contract=off -fno-math-errno -fPIC -shared encoder.c -o libencoder.so
 *   clang --target=wasm32 -O3 -ffp-contract=off -nostdlib -Wl,--no-entry \
 *         -Wl,--export-dynamic -Wl,--export=__heap_base encoder.c -o encoder.wasm
 *
 * API (stable; sizes in bytes, ints int32; state, scratch, ids, out and vectors must be
 * 4-byte aligned, 16 recommended; the model bytes may have any alignment):
 *
 *   int32_t e5k_state_size(const uint8_t *model, int32_t model_len)
 *       Checks the model file's header and returns how many bytes of state e5k_init
 *       needs, or a negative error (E5K_ERR_*). The state is a 128-byte header plus a
 *       copy of the weights (still 4-bit, a row is expanded when used), so the model bytes
 *       may be freed after init. It does not check the digest: the caller does (sha256).
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
 * which float32 holds exactly.
 */
#include <stdint.h>

#define E5K_ERR_SHORT   (-1)  /* file shorter than its header or sections say */
#define E5K_ERR_MAGIC   (-2)  /* not an RLE5 model file */
#define E5K_ERR_VERSION (-3)  /* a format version this kernel does not read */
#define E5K_ERR_SHAPE   (-4)  /* dimensions or section sizes do not fit together */
#define E5K_ERR_INPUT   (-5)  /* token count out of range or an id outside the vocabulary */

#define LANES 8
#define QK 32
#define HEADER_WORDS 32   /* the state starts with 32 int32 words, then the weights */

#define EXPORT __attribute__((visibility("default")))

typedef union { uint32_t u; float f; } f32bits;
typedef union { uint64_t u; double d; } f64bits;

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

/* exp(x) in double: x = k ln2 + r with |r| <= ln2/2, a degree-11 Taylor polynomial of
 * e^r (relative error below 1e-13), scaled by 2^k through the exponent bits. */
static double exp_d(double x) {
    double t, r, p;
    int32_t k;
    f64bits s;
    if (x < -708.0) return 0.0;
    if (x > 709.0) x = 709.0;
    t = x * 1.4426950408889634;
    k = (int32_t)(t < 0 ? t - 0.5 : t + 0.5);
    r = (x - (double)k * 6.93147180369123816490e-01) - (double)k * 1.90821492927058770002e-10;
    p = 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0; p = p * r + 1.0 / 362880.0; p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;    p = p * r + 1.0 / 720.0;    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;      p = p * r + 1.0 / 6.0;      p = p * r + 0.5;
    p = p * r + 1.0;             p = p * r + 1.0;
    s.u = (uint64_t)(k + 1023) << 52;
    return p * s.d;
}

/* erf(x) through the Chebyshev fit of erfc from Numerical Recipes (fractional error
 * below 1.2e-7 everywhere), evaluated in double. */
static double erf_d(double x) {
    double z = x < 0 ? -x : x, t = 1.0 / (1.0 + 0.5 * z), p = 0.17087277, erfc;
    p = p * t - 0.82215223; p = p * t + 1.48851587; p = p * t - 1.13520398;
    p = p * t + 0.27886807; p = p * t - 0.18628806; p = p * t + 0.09678418;
    p = p * t + 0.37409196; p = p * t + 1.00002368; p = p * t - 1.26551223;
    erfc = t * exp_d(-z * z + p);
    return x < 0 ? erfc - 1.0 : 1.0 - erfc;
}

static float gelu(float x) {
    double d = (double)x;
    return (float)(0.5 * d * (1.0 + erf_d(d * 0.70710678118654752440)));
}

/* Eight lanes as two 4-float vectors (GCC/clang vector extensions: element-wise IEEE
 * arithmetic, the same on SSE, NEON, wasm simd128 or scalar code). v4u loads unaligned. */
typedef float v4 __attribute__((vector_size(16)));
typedef float v4u __attribute__((vector_size(16), aligned(4), may_alias));
#define LOAD(p) (*(const v4u *)(p))

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

/* The one dot product: lane l sums elements l, l+8, l+16, ... in order; the lanes are then
 * combined as ((l0+l1)+(l2+l3))+((l4+l5)+(l6+l7)). Every sum over a vector uses it. */
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

/* The state: HEADER_WORDS int32 words, then a verbatim copy of the weights section.
 * Every float array in that section starts at a multiple of 4 bytes, so the kernel reads
 * the copy in place (little-endian hosts only; e5k_init refuses others). Weight matrices
 * stay 4-bit and each row is expanded to float32 just before use. */
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

EXPORT int32_t e5k_init(const uint8_t *model, int32_t model_len, uint8_t *state) {
    int32_t *hdr = (int32_t *)state;
    int32_t r = read_header(model, model_len, hdr), i;
    uint8_t *w = state + 4 * HEADER_WORDS;
    if (r < 0) return r;
    for (i = S_SIZE + 1; i < HEADER_WORDS; i++) hdr[i] = 0;
    for (i = 0; i < hdr[S_WLEN]; i++) w[i] = model[r + i];
    return 0;
}

/* Expands one Q4 row of n weights into float32 (exact: a 4-bit integer times an fp16). */
static void expand_row(const uint8_t *src, float *dst, int32_t n) {
    int32_t b, j;
    for (b = 0; b < n / QK; b++) {
        const uint8_t *blk = src + 18 * b;
        float d = half_to_float((uint32_t)blk[0] | ((uint32_t)blk[1] << 8));
        float *o = dst + QK * b;
        for (j = 0; j < 16; j++) {
            o[j] = (float)((int32_t)(blk[2 + j] & 0x0F) - 8) * d;
            o[j + 16] = (float)((int32_t)(blk[2 + j] >> 4) - 8) * d;
        }
    }
}

EXPORT int32_t e5k_dim(const uint8_t *state) { return ((const int32_t *)state)[S_H]; }
EXPORT int32_t e5k_max_tokens(const uint8_t *state) { return ((const int32_t *)state)[S_P]; }
EXPORT int32_t e5k_vocab(const uint8_t *state) { return ((const int32_t *)state)[S_V]; }

EXPORT int32_t e5k_scratch_size(const uint8_t *state, int32_t n) {
    const int32_t *hdr = (const int32_t *)state;
    return 4 * (6 * n * hdr[S_H] + n * hdr[S_FF] + n + hdr[S_H] + hdr[S_FF]);
}

/* y[t][o] = dot(W[o], x[t]) + b[o]. Each 4-bit row is expanded once into `row` and then
 * meets four tokens at a time; every token's sum still runs in dot()'s lane order.
 * nin is a multiple of 32 (checked at load). */
static void linear(const uint8_t *W, const float *b, const float *x, float *y, float *row,
                   int32_t n, int32_t nout, int32_t nin) {
    int32_t o, t, i, rb = (nin / QK) * 18;
    for (o = 0; o < nout; o++) {
        expand_row(W + o * rb, row, nin);
        for (t = 0; t + 4 <= n; t += 4) {
            const float *x0 = x + t * nin, *x1 = x0 + nin, *x2 = x1 + nin, *x3 = x2 + nin;
            v4 a0 = {0, 0, 0, 0}, b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
            for (i = 0; i < nin; i += LANES) {
                v4 wl = LOAD(row + i), wh = LOAD(row + i + 4);
                a0 += wl * LOAD(x0 + i); b0 += wh * LOAD(x0 + i + 4);
                a1 += wl * LOAD(x1 + i); b1 += wh * LOAD(x1 + i + 4);
                a2 += wl * LOAD(x2 + i); b2 += wh * LOAD(x2 + i + 4);
                a3 += wl * LOAD(x3 + i); b3 += wh * LOAD(x3 + i + 4);
            }
            y[t * nout + o] = combine(a0, b0) + b[o];
            y[(t + 1) * nout + o] = combine(a1, b1) + b[o];
            y[(t + 2) * nout + o] = combine(a2, b2) + b[o];
            y[(t + 3) * nout + o] = combine(a3, b3) + b[o];
        }
        for (; t < n; t++) y[t * nout + o] = dot(row, x + t * nin, nin) + b[o];
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

/* Softmax attention, every token attending to every token of the one input. */
static void attention(const float *q, const float *k, const float *v, float *ctx, float *prob,
                      int32_t n, int32_t H, int32_t NH) {
    int32_t hd = H / NH, t, h, j, e;
    float scale = 1.0f / __builtin_sqrtf((float)hd);
    for (t = 0; t < n; t++)
        for (h = 0; h < NH; h++) {
            const float *qh = q + t * H + h * hd;
            float *ch = ctx + t * H + h * hd, mx, total = 0.0f;
            for (j = 0; j < n; j++) prob[j] = dot(qh, k + j * H + h * hd, hd) * scale;
            mx = prob[0];
            for (j = 1; j < n; j++) if (prob[j] > mx) mx = prob[j];
            for (j = 0; j < n; j++) { prob[j] = (float)exp_d((double)(prob[j] - mx)); total += prob[j]; }
            for (j = 0; j < n; j++) prob[j] = prob[j] / total;
            for (e = 0; e < hd; e++) ch[e] = prob[0] * v[h * hd + e];
            for (j = 1; j < n; j++)
                for (e = 0; e < hd; e++) ch[e] += prob[j] * v[j * H + h * hd + e];
        }
}

EXPORT int32_t e5k_encode(const uint8_t *state, const int32_t *ids, int32_t n,
                          uint8_t *scratch, float *out) {
    const int32_t *hdr = (const int32_t *)state;
    const uint8_t *w = state + 4 * HEADER_WORDS;
    int32_t H = hdr[S_H], FF = hdr[S_FF], NH = hdr[S_NH], t, i, l, lo[L_END];
    f32bits epsb;
    float eps, *x, *q, *k, *v, *ctx, *tmp, *mid, *prob, *pooled, *row, norm;
    const float *pos = (const float *)(w + hdr[S_POS]), *type = (const float *)(w + hdr[S_TYPE]);
    if (n < 1 || n > hdr[S_P]) return E5K_ERR_INPUT;
    for (t = 0; t < n; t++) if (ids[t] < 0 || ids[t] >= hdr[S_V]) return E5K_ERR_INPUT;
    epsb.u = (uint32_t)hdr[S_EPS]; eps = epsb.f;
    x = (float *)scratch; q = x + n * H; k = q + n * H; v = k + n * H; ctx = v + n * H;
    tmp = ctx + n * H; mid = tmp + n * H; prob = mid + n * FF; pooled = prob + n; row = pooled + H;

    /* embeddings: (word + position) + type 0, then LayerNorm */
    for (t = 0; t < n; t++) {
        float *r = x + t * H;
        expand_row(w + ids[t] * (H / QK) * 18, r, H);
        for (i = 0; i < H; i++) r[i] = (r[i] + pos[t * H + i]) + type[i];
    }
    add_norm(x, 0, (const float *)(w + hdr[S_ELNW]), (const float *)(w + hdr[S_ELNB]), n, H, eps);

    layer_offsets(H, FF, lo);
    for (l = 0; l < hdr[S_NL]; l++) {
        const uint8_t *L = w + hdr[S_LAYERS] + l * hdr[S_LAYER_BYTES];
#define VEC(name) ((const float *)(L + lo[name]))
        linear(L + lo[L_QW], VEC(L_QB), x, q, row, n, H, H);
        linear(L + lo[L_KW], VEC(L_KB), x, k, row, n, H, H);
        linear(L + lo[L_VW], VEC(L_VB), x, v, row, n, H, H);
        attention(q, k, v, ctx, prob, n, H, NH);
        linear(L + lo[L_AOW], VEC(L_AOB), ctx, tmp, row, n, H, H);
        add_norm(x, tmp, VEC(L_ALNW), VEC(L_ALNB), n, H, eps);
        linear(L + lo[L_FIW], VEC(L_FIB), x, mid, row, n, FF, H);
        for (i = 0; i < n * FF; i++) mid[i] = gelu(mid[i]);
        linear(L + lo[L_FOW], VEC(L_FOB), mid, tmp, row, n, H, FF);
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
