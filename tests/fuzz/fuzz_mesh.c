/* Fuzz target: mesh ingest and every query on the result.
 *
 * The input is a mesh (up to 24 vertices and 16 triangles, indexed or not, indices possibly out of range,
 * coordinates possibly non-finite or beyond the accepted range) with every field of snug_mesh_def, optionally an
 * allocation to fail. A mesh that is created is checked (finite derived data, a bit-exact blob round trip) and
 * queried against itself at fuzzed poses: overlap and all pairs against brute force over every triangle pair,
 * distance against the brute-force minimum, the tolerance query against the distance, rays, closest points,
 * inside, sweeps and time of impact with fuzzed settings, and a replacement of its positions. */
#include "fuzz_input.h"
#include "bvh/mesh.h"
#include "base/pose.h"
#include "geom/tri.h"

/* Small meshes find the defects (a few triangles already split, degenerate, weld and touch) and keep the brute-force
 * checks and the bounded but pathological motion searches cheap enough for 10^7 runs. */
#define MAX_V 24
#define MAX_T 16

typedef struct world_tris {
    float v[MAX_T][3][3];
    uint32_t n;
} world_tris;

/* The mesh's triangles (slot order) with B's taken into A's frame the way the queries take them. */
static void frame_tris(const snug_mesh_data* m, const snug_xform* x, world_tris* out) {
    out->n = m->tri_count;
    for (uint32_t s = 0; s < m->tri_count; s++)
        for (int c = 0; c < 3; c++) snug_xform_point(x, snug_mesh_vertex(m, s, c), out->v[s][c]);
}

static void check_pair_queries(snug_ctx* ctx, snug_mesh h, const snug_mesh_data* m, const snug_pose* pa,
                               const snug_pose* pb) {
    bool hit = false;
    snug_tri_pair pair;
    snug_status st = snug_mesh_overlap(ctx, h, pa, h, pb, &hit, &pair);
    fz_check_status(ctx, st, "query_overlap");
    if (st != SNUG_OK) {
        FZ_CHECK(st == SNUG_ERR_NOT_FINITE || st == SNUG_ERR_INVALID_ARGUMENT, "overlap: %s", snug_status_name(st));
        return;
    }
    snug_xform rel, id;
    snug_xform_relative(pa, pb, &rel);
    snug_xform_identity(&id);
    static world_tris ta, tb;
    frame_tris(m, &id, &ta);
    frame_tris(m, &rel, &tb);
    float eps = m->tolerance;
    uint32_t brute = 0;
    float brute_d = INFINITY;
    for (uint32_t i = 0; i < ta.n; i++)
        for (uint32_t j = 0; j < tb.n; j++) {
            /* boxes farther apart than eps and the best distance hold neither an overlap nor a nearer pair */
            float g2 = 0.0f;
            for (int c = 0; c < 3; c++) {
                float alo = fminf(fminf(ta.v[i][0][c], ta.v[i][1][c]), ta.v[i][2][c]), ahi = fmaxf(fmaxf(ta.v[i][0][c], ta.v[i][1][c]), ta.v[i][2][c]);
                float blo = fminf(fminf(tb.v[j][0][c], tb.v[j][1][c]), tb.v[j][2][c]), bhi = fmaxf(fmaxf(tb.v[j][0][c], tb.v[j][1][c]), tb.v[j][2][c]);
                float g = fmaxf(blo - ahi, alo - bhi);
                g2 += g > 0.0f ? g * g : 0.0f;
            }
            if (g2 > eps * eps * 1.0001f && g2 > brute_d * brute_d) continue;
            brute += snug_tri_tri_overlap(ta.v[i][0], ta.v[i][1], ta.v[i][2], tb.v[j][0], tb.v[j][1], tb.v[j][2], eps);
            float p[3], q[3];
            float d = snug_tri_tri_distance(ta.v[i][0], ta.v[i][1], ta.v[i][2], tb.v[j][0], tb.v[j][1], tb.v[j][2], p, q);
            if (d < brute_d) brute_d = d;
        }
    FZ_CHECK(hit == (brute > 0), "overlap says %d, brute force finds %u pairs", hit, brute);
    snug_tri_pair pairs[MAX_T * MAX_T];
    uint32_t total = 0;
    st = snug_mesh_overlap_all(ctx, h, pa, h, pb, pairs, MAX_T * MAX_T, &total);
    FZ_CHECK(st == SNUG_OK && total == brute, "overlap_all: %s, %u pairs, brute force %u", snug_status_name(st), total,
             brute);
    for (uint32_t k = 0; k < total; k++) FZ_CHECK(pairs[k].tri_a < m->tri_count && pairs[k].tri_b < m->tri_count, "pair ids");

    snug_distance_result dr;
    st = snug_mesh_distance(ctx, h, pa, h, pb, &dr);
    FZ_CHECK(st == SNUG_OK, "distance: %s", snug_status_name(st));
    FZ_CHECK(isfinite(dr.distance) && dr.distance >= 0.0f, "distance %g", (double)dr.distance);
    FZ_CHECK(dr.tri_a < m->tri_count && dr.tri_b < m->tri_count, "distance triangle ids");
    /* bounds carry no rounding guard: a pair lost to rounding is a few ulps of the coordinates nearer */
    float slack = 1e-5f * (m->scale + glm_vec3_norm(rel.t) + brute_d) + eps;
    if (brute) FZ_CHECK(dr.distance <= 2.0f * eps, "overlapping meshes at distance %g (eps %g)", (double)dr.distance, (double)eps);
    else FZ_CHECK(fabsf(dr.distance - brute_d) <= slack, "distance %.9g, brute force %.9g", (double)dr.distance, (double)brute_d);
    bool within = false;
    st = snug_mesh_within(ctx, h, pa, h, pb, dr.distance * 1.0001f + eps, &within);
    FZ_CHECK(st == SNUG_OK && within, "within above the distance: %s %d", snug_status_name(st), within);
    if (!brute && dr.distance > 4.0f * eps) {
        st = snug_mesh_within(ctx, h, pa, h, pb, dr.distance * 0.999f - eps, &within);
        FZ_CHECK(st == SNUG_OK && !within, "within below the distance %g: %s %d", (double)dr.distance,
                 snug_status_name(st), within);
    }
}

static void check_rays(fz* f, snug_ctx* ctx, snug_mesh h, const snug_mesh_data* m, const snug_pose* pose) {
    for (int r = 0; r < 3; r++) {
        snug_ray ray;
        for (int i = 0; i < 3; i++) ray.origin[i] = fz_float(f), ray.dir[i] = fz_float(f);
        ray.tmax = fz_bool(f) ? INFINITY : fz_float(f);
        snug_ray_hit hit;
        snug_status st = snug_mesh_raycast(ctx, h, pose, &ray, &hit);
        fz_check_status(ctx, st, "raycast");
        if (st != SNUG_OK) continue;
        bool any = false;
        FZ_CHECK(snug_mesh_raycast_any(ctx, h, pose, &ray, &any) == SNUG_OK, "raycast_any");
        FZ_CHECK(any == (hit.tri != SNUG_NO_HIT), "any %d, closest %u", any, hit.tri);
        snug_ray_hit all[MAX_T];
        uint32_t total = 0;
        FZ_CHECK(snug_mesh_raycast_all(ctx, h, pose, &ray, all, MAX_T, &total) == SNUG_OK, "raycast_all");
        FZ_CHECK((total > 0) == any && total <= m->tri_count, "%u hits, any %d", total, any);
        for (uint32_t k = 1; k < total; k++) FZ_CHECK(all[k - 1].t <= all[k].t, "hits not sorted");
        if (hit.tri == SNUG_NO_HIT) continue;
        FZ_CHECK(hit.tri < m->tri_count && hit.t >= 0.0f && hit.t <= ray.tmax, "hit %u at t %g", hit.tri, (double)hit.t);
        FZ_CHECK(all[0].t == hit.t, "closest %g, first of all %g", (double)hit.t, (double)all[0].t);
        float n2 = hit.normal[0] * hit.normal[0] + hit.normal[1] * hit.normal[1] + hit.normal[2] * hit.normal[2];
        FZ_CHECK(fabsf(n2 - 1.0f) < 1e-3f, "hit normal of length^2 %g", (double)n2);
        for (int i = 0; i < 3; i++) FZ_CHECK(isfinite(hit.point[i]), "hit point");
    }
    float origins[6], dirs[6];
    for (int i = 0; i < 6; i++) origins[i] = fz_float(f), dirs[i] = fz_float(f);
    snug_ray_hit hits[2];
    fz_check_status(ctx, snug_mesh_raycast_batch(ctx, h, pose, origins, dirs, NULL, 2, hits), "raycast_batch");
}

static void check_points(fz* f, snug_ctx* ctx, snug_mesh h, const snug_mesh_data* m, const snug_pose* pose) {
    float p[3];
    for (int i = 0; i < 3; i++) p[i] = fz_float(f);
    float max_d = fz_bool(f) ? INFINITY : fz_float(f);
    snug_point_result pr;
    snug_status st = snug_mesh_closest_point(ctx, h, pose, p, max_d, &pr);
    fz_check_status(ctx, st, "closest_point");
    if (st == SNUG_OK && pr.tri != SNUG_NO_HIT) {
        FZ_CHECK(pr.tri < m->tri_count && isfinite(pr.distance) && pr.distance >= 0.0f, "closest point %u at %g", pr.tri,
                 (double)pr.distance);
        /* brute force in the mesh frame */
        snug_xform x, inv;
        snug_xform_from_pose(pose, &x);
        snug_xform_inverse(&x, &inv);
        float local[3], best = INFINITY, q[3];
        snug_xform_point(&inv, p, local);
        for (uint32_t s = 0; s < m->tri_count; s++) {
            float d2 = snug_point_tri_closest(local, snug_mesh_vertex(m, s, 0), snug_mesh_vertex(m, s, 1),
                                              snug_mesh_vertex(m, s, 2), q); /* squared */
            if (d2 < best) best = d2;
        }
        best = sqrtf(best);
        float slack = 1e-5f * (m->scale + fabsf(local[0]) + fabsf(local[1]) + fabsf(local[2]) + best);
        FZ_CHECK(fabsf(pr.distance - best) <= slack, "closest %g, brute force %g", (double)pr.distance, (double)best);
    }
    bool inside;
    fz_check_status(ctx, snug_mesh_inside(ctx, h, pose, p, &inside), "inside");
}

static void check_toi_result(const snug_toi_result* r, const snug_mesh_data* m, const char* what) {
    FZ_CHECK(r->t >= 0.0f && r->t <= 1.0f && r->safe_t >= 0.0f && r->safe_t <= r->t, "%s: t %g safe_t %g", what,
             (double)r->t, (double)r->safe_t);
    if (!r->hit) {
        FZ_CHECK(r->t == 1.0f && r->tri_a == SNUG_NO_HIT, "%s: no hit with t %g", what, (double)r->t);
        return;
    }
    if (r->feature == SNUG_FEATURE_NONE) /* a search cut short by its work budget: a conservative contact */
        FZ_CHECK(r->tri_a == SNUG_NO_HIT && r->tri_b == SNUG_NO_HIT, "%s: a budget cut names triangles", what);
    else
        FZ_CHECK(r->tri_a < m->tri_count && r->tri_b < m->tri_count, "%s: triangles %u %u", what, r->tri_a, r->tri_b);
    for (int i = 0; i < 3; i++) FZ_CHECK(isfinite(r->point[i]) && isfinite(r->normal[i]), "%s: point or normal", what);
}

/* One of the motion queries per run (they are the slowest: pathological ones spend their whole work budget). */
static void check_motion_queries(fz* f, snug_ctx* ctx, snug_mesh h, const snug_mesh_data* m) {
    uint32_t which = fz_below(f, 3);
    snug_pose pose = fz_pose(f), other = fz_pose(f);
    snug_toi_result r;
    if (which == 0) {
        float move[3];
        for (int i = 0; i < 3; i++) move[i] = fz_float(f);
        snug_status st = snug_mesh_sweep(ctx, h, &pose, move, h, &other, &r);
        fz_check_status(ctx, st, "sweep");
        if (st == SNUG_OK) check_toi_result(&r, m, "sweep");
        return;
    }
    if (which == 1) {
        float pivot[3], axis[3];
        for (int i = 0; i < 3; i++) pivot[i] = fz_float(f), axis[i] = fz_float(f);
        snug_status st = snug_mesh_sweep_rotation(ctx, h, &pose, pivot, axis, fz_float(f), h, &other, &r);
        fz_check_status(ctx, st, "sweep_rotation");
        if (st == SNUG_OK) check_toi_result(&r, m, "sweep_rotation");
        return;
    }

    snug_toi_def def = snug_default_toi_def();
    if (fz_bool(f)) {
        def.mode = (snug_toi_mode)fz_below(f, SNUG_TOI_MODE_COUNT + 1);
        def.root_finder = (snug_root_finder)fz_below(f, SNUG_ROOT_FINDER_COUNT + 1);
        def.sampling_step = fz_bool(f) ? fz_unit(f) : fz_float(f);
        def.max_iterations = (int)fz_below(f, 110);
        def.tolerance = fz_bool(f) ? 0.0f : fz_float(f);
        def.daasd_slabs = fz_below(f, 5000);
    }
    snug_pose keys[2];
    float times[2];
    snug_motion ma = {fz_pose(f), fz_pose(f), NULL, NULL, 0};
    snug_motion mb = snug_motion_static(&other);
    if (fz_bool(f)) {
        ma.key_count = 1 + fz_below(f, 2);
        for (uint32_t k = 0; k < ma.key_count; k++) keys[k] = fz_pose(f), times[k] = fz_unit(f);
        ma.key_times = times;
        ma.key_poses = keys;
    }
    if (fz_bool(f)) mb.end = fz_pose(f);
    snug_status st = snug_mesh_toi(ctx, h, &ma, h, &mb, &def, &r);
    fz_check_status(ctx, st, "toi");
    if (st == SNUG_OK) check_toi_result(&r, m, "toi");
}

/* Info, quality and a blob round trip of a created mesh. */
static void check_mesh_data(snug_ctx* ctx, snug_mesh h, const snug_mesh_data* m) {
    snug_mesh_info info;
    FZ_CHECK(snug_mesh_get_info(ctx, h, &info) == SNUG_OK, "info");
    FZ_CHECK(isfinite(info.scale) && isfinite(info.tolerance) && info.tolerance > 0.0f, "scale %g tolerance %g",
             (double)info.scale, (double)info.tolerance);
    for (uint32_t v = 0; v < m->vertex_count; v++)
        for (int a = 0; a < 3; a++)
            FZ_CHECK(m->positions[3 * v + a] >= info.aabb_min[a] && m->positions[3 * v + a] <= info.aabb_max[a], "aabb");
    snug_bvh_quality q;
    FZ_CHECK(snug_mesh_get_quality(ctx, h, &q) == SNUG_OK, "quality");
    FZ_CHECK(isfinite(q.volume_sum) && isfinite(q.surface_sum) && isfinite(q.diameter_sum) && isfinite(q.sah_cost) &&
                 isfinite(q.hausdorff_max),
             "quality not finite");
    uint32_t ids[MAX_T], total;
    FZ_CHECK(snug_mesh_get_degenerate(ctx, h, ids, MAX_T, &total) == SNUG_OK && total == info.degenerate_count, "degenerate");
    size_t size = 0;
    FZ_CHECK(snug_mesh_serialize(ctx, h, NULL, 0, &size) == SNUG_OK, "serialize size: %s", snug_ctx_last_error(ctx));
    unsigned char* blob = malloc(size);
    unsigned char* again = malloc(size);
    FZ_CHECK(snug_mesh_serialize(ctx, h, blob, size, &size) == SNUG_OK, "serialize");
    snug_mesh loaded;
    snug_status st = snug_mesh_deserialize(ctx, blob, size, &loaded);
    FZ_CHECK(st == SNUG_OK, "a serialized mesh does not load: %s", snug_ctx_last_error(ctx));
    size_t size2 = 0;
    FZ_CHECK(snug_mesh_serialize(ctx, loaded, again, size, &size2) == SNUG_OK && size2 == size &&
                 memcmp(blob, again, size) == 0,
             "round trip not bit-exact");
    FZ_CHECK(snug_mesh_destroy(ctx, loaded) == SNUG_OK, "destroy loaded");
    free(blob);
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fz in = {data, size, 0};
    fz* f = &in;
    fz_alloc fail = {-1};
    uint8_t mode = fz_u8(f);
    snug_ctx_def cdef = fz_ctx_def(&fail);
    snug_ctx* ctx = snug_ctx_create(&cdef);
    FZ_CHECK(ctx, "context");
    size_t base = snug_ctx_allocated_bytes(ctx);

    static float positions[3 * 3 * MAX_T];
    static uint32_t indices[3 * MAX_T];
    uint32_t nt = 1 + fz_below(f, MAX_T), nv = 1 + fz_below(f, MAX_V);
    bool indexed = !(mode & 1);
    if (!indexed) nv = fz_u8(f) < 240 ? 3 * nt : nv; /* a count mismatch now and then */
    for (uint32_t i = 0; i < 3 * nv; i++) positions[i] = fz_float(f);
    for (uint32_t i = 0; i < 3 * nt; i++) {
        uint8_t b = fz_u8(f);
        indices[i] = b < 250 ? b % nv : nv + (b - 250); /* a few out of range */
    }
    snug_mesh_def def = snug_default_mesh_def();
    def.positions = positions;
    def.vertex_count = nv;
    def.indices = indexed ? indices : NULL;
    def.triangle_count = nt;
    def.weld = fz_bool(f);
    if (fz_bool(f)) def.weld_tolerance = fz_bool(f) ? fz_unit(f) * 0.01f : fz_float(f);
    if (mode & 2) {
        snug_bvh_def* b = &def.bvh;
        b->bv_type = (snug_bv_type)fz_below(f, SNUG_BV_TYPE_COUNT + 2);
        b->splitter = (snug_splitter)fz_below(f, SNUG_SPLITTER_COUNT + 1);
        b->branching = (int)fz_below(f, 8);
        b->max_branching = (int)fz_below(f, 8);
        b->alpha = fz_bool(f) ? fz_unit(f) : fz_float(f);
        b->small_node = (int)(int8_t)fz_u8(f);
        b->leaf_size = (int)fz_below(f, 260);
        b->max_depth = (int)fz_below(f, 70);
        /* the Hausdorff measure and bounds are the slow builds (and loads): now and then, so that the runs stay
         * far below a second each on a busy machine */
        uint8_t measure = fz_u8(f);
        b->measure = measure < 240 ? (snug_measure)(measure % SNUG_MEASURE_HAUSDORFF)
                                   : (snug_measure)(SNUG_MEASURE_HAUSDORFF + measure % 2); /* and one beyond */
        b->sah_bins = (int)fz_below(f, 70);
        b->bb_max_faces = (int)fz_below(f, 12);
        b->bottom_up = fz_bool(f);
        b->obb_refine = fz_bool(f);
        b->hausdorff = fz_u8(f) < 24;
    }
    if (mode & 4) fail.countdown = (int)fz_below(f, 64);
    snug_mesh h = 0;
    snug_status st = snug_mesh_create(ctx, &def, &h);
    bool exhausted = fail.countdown >= 0; /* the create needed fewer allocations than the failing one */
    fail.countdown = -1;
    fz_check_status(ctx, st, "mesh_create");
    if (st != SNUG_OK) {
        FZ_CHECK(snug_ctx_allocated_bytes(ctx) == base, "a failed create left %zu bytes",
                 snug_ctx_allocated_bytes(ctx) - base);
        FZ_CHECK(st != SNUG_ERR_OUT_OF_MEMORY || ((mode & 4) && !exhausted), "out of memory without a failed allocation");
        snug_ctx_destroy(ctx);
        return 0;
    }
    const snug_mesh_data* m = snug_mesh_lookup(ctx, h);
    FZ_CHECK(m, "lookup");
    /* which checks run (about half of them per input: more inputs per second) */
    uint8_t checks = fz_u8(f);
    if (checks & 1) check_mesh_data(ctx, h, m);
    if (checks & 2) {
        snug_pose pa = fz_pose(f), pb = fz_pose(f);
        check_pair_queries(ctx, h, m, &pa, &pb);
    }
    if (checks & 4) {
        snug_pose pose = fz_pose(f);
        check_rays(f, ctx, h, m, &pose);
        check_points(f, ctx, h, m, &pose);
    }
    if (checks & 8) check_motion_queries(f, ctx, h, m);
    if (checks & 16) { /* new positions: the same count (else rejected), possibly bad */
        for (uint32_t i = 0; i < 3 * m->vertex_count; i++)
            if (fz_u8(f) & 1) positions[i] = fz_float(f);
        st = snug_mesh_set_positions(ctx, h, positions, m->vertex_count);
        fz_check_status(ctx, st, "set_positions");
        if (st == SNUG_OK) {
            check_mesh_data(ctx, h, snug_mesh_lookup(ctx, h));
            snug_pose pa = fz_pose(f), pb = fz_pose(f);
            check_pair_queries(ctx, h, snug_mesh_lookup(ctx, h), &pa, &pb);
        }
    }
    FZ_CHECK(snug_mesh_destroy(ctx, h) == SNUG_OK, "destroy");
    /* what stays: the scratch arena and the handle pool's arrays */
    size_t kept = ctx->scratch.size + (size_t)ctx->meshes.capacity * (sizeof(void*) + sizeof(uint16_t) + sizeof(uint32_t));
    FZ_CHECK(snug_ctx_allocated_bytes(ctx) == base + kept, "a destroyed mesh left %zd bytes behind",
             (ptrdiff_t)(snug_ctx_allocated_bytes(ctx) - base - kept));
    snug_ctx_destroy(ctx);
    return 0;
}
