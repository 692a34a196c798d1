/* OBB trees and the Gottschalk splitter, checked independently of their float shortcuts:
 *  - every node OBB of an OBB tree contains every vertex of its subtree EXACTLY (slab test in double on the stored
 *    floats, no tolerance), for the Gottschalk and SAH splitters, binary, 4-ary and variable branching, on npm
 *    meshes and on soups placed far from the origin or at tiny scale (float projections and their padding);
 *  - the binary Gottschalk split is the plane through the centre of the node's covariance box normal to its
 *    longest axis (seed points c -+ a/2): recomputed here in double from snug_obb_fit, every face whose midpoint
 *    is clearly on one side lands there, and the result is a partition with the parts' exact AABBs;
 *  - a node's axes from the faces' own moments in the builder's records (and on the generic path, the same bits)
 *    make the node's area-weighted covariance, summed here per triangle in double, diagonal; so do every inner node's
 *    axes in the built trees, where a larger child's moments are mostly its parent's minus its sibling's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bv_test_util.h"
#include "bvh/bvh_build.h"
#include "harness.h"
#include "bvh/mesh.h"
#include "geom/obb_fit.h"
#include "bvh/split.h"
#include "test_meshes.h"

/* zero-area faces in a soup (separate vertices per face): every third collapses to a point and every fifth to a
 * segment, or with `all` every face to a segment, so whole nodes have no area (the vertex-covariance fallback) */
static void degenerate_soup(test_mesh* m, bool all) {
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        float* v = m->positions + 9 * t;
        if (all || t % 5 == 0) memcpy(v + 6, v + 3, 3 * sizeof *v);
        else if (t % 3 == 0) memcpy(v + 3, v, 3 * sizeof *v), memcpy(v + 6, v, 3 * sizeof *v);
    }
}

/* vertices of node i's subtree outside its OBB (double slab test on the stored floats) */
static uint32_t node_escapes(const snug_mesh_data* m, uint32_t i) {
    const snug_obb* o = &m->bvh.obbs[i];
    uint32_t first, count, bad = 0;
    snug_bvh_node_range(&m->bvh, i, &first, &count);
    for (uint32_t s = first; s < first + count; s++)
        for (int c = 0; c < 3; c++) {
            const float* p = snug_mesh_vertex(m, s, c);
            for (int k = 0; k < 3; k++) {
                double q = 0.0;
                for (int a = 0; a < 3; a++) q += (double)o->axes[k][a] * ((double)p[a] - (double)o->c[a]);
                if (fabs(q) > (double)o->e[k]) {
                    bad++;
                    break;
                }
            }
        }
    return bad;
}

static void check_obb_tree(snug_ctx* ctx, const test_mesh* tm, snug_splitter sp, int branching, const char* what) {
    snug_bvh_def def = snug_default_bvh_def();
    def.bv_type = SNUG_BV_OBB;
    def.splitter = sp;
    def.branching = branching;
    snug_mesh h = test_mesh_make(ctx, tm, &def);
    if (!h) return;
    const snug_mesh_data* m = snug_mesh_lookup(ctx, h);
    uint32_t bad_nodes = 0, bad = 0;
    for (uint32_t i = 0; i < m->bvh.node_count; i++) {
        uint32_t b = node_escapes(m, i);
        const snug_obb* o = &m->bvh.obbs[i];
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) {
                float d = glm_vec3_dot((float*)o->axes[a], (float*)o->axes[c]);
                if (fabsf(d - (a == c)) > 1e-6f) b++;
            }
        bad_nodes += b > 0;
        bad += b;
    }
    CHECK_MSG(bad == 0, "%s (splitter %d, branching %d): %u escapes/bad axes in %u of %u nodes", what, (int)sp, branching,
              bad, bad_nodes, m->bvh.node_count);
    snug_mesh_destroy(ctx, h);
}

static void check_all_settings(snug_ctx* ctx, const test_mesh* tm, const char* what) {
    static const snug_splitter sps[2] = {SNUG_SPLITTER_GOTTSCHALK, SNUG_SPLITTER_SAH};
    static const int branchings[3] = {2, 4, 0};
    for (int s = 0; s < 2; s++)
        for (int b = 0; b < 3; b++) check_obb_tree(ctx, tm, sps[s], branchings[b], what);
}

static void test_tree_obbs_contain_exactly(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    const char* names[] = {"bunny", "dragon11k"};
    for (int i = 0; i < 2; i++) {
        test_mesh m;
        if (!test_mesh_load(names[i], &m)) continue;
        check_all_settings(ctx, &m, names[i]);
        test_mesh_free(&m);
    }
    rng r = {harness_seed() ^ 0x0bb7};
    for (int round = 0; round < 4 * harness_scale(); round++) {
        test_mesh soup;
        test_mesh_soup(&r, 300 + (uint32_t)(rng_float(&r) * 300), 1.0f, 0.3f, &soup);
        /* far off the origin (1e4 sizes: the projections are large, the extents small) or tiny */
        float shift[3], scale = (round % 3 == 2) ? 1e-4f : 1.0f;
        for (int a = 0; a < 3; a++) shift[a] = (round % 3 == 1) ? rng_range(&r, -2e4f, 2e4f) : 0.0f;
        for (uint32_t v = 0; v < soup.vertex_count; v++)
            for (int a = 0; a < 3; a++) soup.positions[3 * v + a] = soup.positions[3 * v + a] * scale + shift[a];
        check_all_settings(ctx, &soup, round % 3 == 1 ? "far soup" : round % 3 == 2 ? "tiny soup" : "soup");
        test_mesh_free(&soup);
        RETURN_IF_FAILED();
    }
    for (int all = 0; all < 2; all++) {
        test_mesh soup;
        test_mesh_soup(&r, 400, 1.0f, 0.3f, &soup);
        degenerate_soup(&soup, all);
        check_all_settings(ctx, &soup, all ? "segment soup" : "partly degenerate soup");
        test_mesh_free(&soup);
    }
    snug_ctx_destroy(ctx);
}

static snug_mesh make_gottschalk_tree(snug_ctx* ctx, const test_mesh* tm, snug_measure measure) {
    snug_mesh_def md = snug_default_mesh_def();
    md.positions = tm->positions;
    md.vertex_count = tm->vertex_count;
    md.indices = tm->indices;
    md.triangle_count = tm->triangle_count;
    md.bvh.bv_type = SNUG_BV_OBB;
    md.bvh.splitter = SNUG_SPLITTER_GOTTSCHALK;
    md.bvh.branching = 2;
    md.bvh.measure = measure;
    snug_mesh h = 0;
    snug_status st = snug_mesh_create(ctx, &md, &h);
    CHECK_MSG(st == SNUG_OK, "%s", snug_ctx_last_error(ctx));
    return st == SNUG_OK ? h : 0;
}

static double obb_volume(const snug_obb* o) { return 8.0 * (double)o->e[0] * o->e[1] * o->e[2]; }
static double obb_surface(const snug_obb* o) {
    return 8.0 * ((double)o->e[0] * o->e[1] + (double)o->e[1] * o->e[2] + (double)o->e[2] * o->e[0]);
}

/* The dedicated binary OBB Gottschalk path (bvh_build_obb.c) against the generic driver, which the Hausdorff
 * measure forces (it does not change the split; there every node's OBB is a fresh snug_obb_fit in double): the
 * same nodes, AABBs, leaf ranges and slot order; inner OBBs no larger beyond float noise of the axes (the dedicated
 * path keeps the splitter's float-moment axes), in sum no larger at all. Leaves take float-moment axes too, and a
 * leaf of one or two faces may be nearly isotropic in its plane, where float and double axes turn apart and the
 * box changes by tens of percent either way: leaves are held to their sums instead (within 1e-4 of the generic
 * ones). Exact containment is test_tree_obbs_contain_exactly's. */
static void compare_with_generic_as(snug_ctx* ctx, const test_mesh* tm, const char* what, double worst[4], bool sizes) {
    snug_mesh ha = make_gottschalk_tree(ctx, tm, SNUG_MEASURE_SURFACE);
    snug_mesh hb = make_gottschalk_tree(ctx, tm, SNUG_MEASURE_HAUSDORFF);
    if (!ha || !hb) return;
    const snug_mesh_data* a = snug_mesh_lookup(ctx, ha);
    const snug_mesh_data* b = snug_mesh_lookup(ctx, hb);
    CHECK_MSG(a->bvh.node_count == b->bvh.node_count && a->bvh.depth == b->bvh.depth &&
                  a->bvh.leaf_count == b->bvh.leaf_count,
              "%s: %u nodes depth %u vs generic %u depth %u", what, a->bvh.node_count, a->bvh.depth, b->bvh.node_count,
              b->bvh.depth);
    if (a->bvh.node_count != b->bvh.node_count) goto done;
    uint32_t diff_nodes = 0, diff_slots = 0, larger = 0;
    double va[2] = {0, 0}, vb[2] = {0, 0}, sa[2] = {0, 0}, sb[2] = {0, 0}; /* inner nodes, leaves */
    for (uint32_t i = 0; i < a->bvh.node_count; i++) {
        const snug_node *x = &a->bvh.nodes[i], *y = &b->bvh.nodes[i];
        diff_nodes += x->first != y->first || x->info != y->info || memcmp(x->min, y->min, sizeof x->min) != 0 ||
                      memcmp(x->max, y->max, sizeof x->max) != 0;
        const snug_obb *oa = &a->bvh.obbs[i], *ob = &b->bvh.obbs[i];
        double r = fmax(obb_volume(oa) / fmax(obb_volume(ob), 1e-300), obb_surface(oa) / fmax(obb_surface(ob), 1e-300));
        int leaf = SNUG_NODE_CHILDREN(x->info) == 0;
        if (r > worst[leaf]) worst[leaf] = r;
        larger += !leaf && r > 1.0 + 1e-4;
        va[leaf] += obb_volume(oa), vb[leaf] += obb_volume(ob), sa[leaf] += obb_surface(oa), sb[leaf] += obb_surface(ob);
    }
    for (uint32_t s = 0; s < a->tri_count; s++) diff_slots += a->tri_ids[s] != b->tri_ids[s];
    CHECK_MSG(diff_nodes == 0 && diff_slots == 0, "%s: %u nodes and %u slots differ from the generic tree", what,
              diff_nodes, diff_slots);
    if (!sizes) goto done;
    CHECK_MSG(larger == 0, "%s: %u inner OBBs over 1e-4 larger than the generic fit's", what, larger);
    CHECK_MSG(va[0] <= vb[0] * (1.0 + 1e-6) && sa[0] <= sb[0] * (1.0 + 1e-6),
              "%s: inner volume %.9g vs %.9g, surface %.9g vs %.9g", what, va[0], vb[0], sa[0], sb[0]);
    CHECK_MSG(va[1] <= vb[1] * (1.0 + 1e-4) && sa[1] <= sb[1] * (1.0 + 1e-4),
              "%s: leaf volume %.9g vs %.9g, surface %.9g vs %.9g", what, va[1], vb[1], sa[1], sb[1]);
    if (va[1] / vb[1] > worst[2]) worst[2] = va[1] / vb[1];
    if (sa[1] / sb[1] > worst[3]) worst[3] = sa[1] / sb[1];
done:
    snug_mesh_destroy(ctx, ha);
    snug_mesh_destroy(ctx, hb);
}

static void compare_with_generic(snug_ctx* ctx, const test_mesh* tm, const char* what, double worst[4]) {
    compare_with_generic_as(ctx, tm, what, worst, true);
}

static void test_obb_path_matches_generic(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    double worst[4] = {0, 0, 0, 0}; /* per node: inner, leaf; leaf sums: volume, surface */
    int meshes = 0;
    const char* names[] = {"bunny", "dragon11k"};
    for (int i = 0; i < 2; i++) {
        test_mesh m;
        if (!test_mesh_load(names[i], &m)) continue;
        compare_with_generic(ctx, &m, names[i], worst);
        meshes++;
        test_mesh_free(&m);
    }
    rng r = {harness_seed() ^ 0x0bb8};
    for (int round = 0; round < 6 * harness_scale(); round++) {
        test_mesh soup;
        test_mesh_soup(&r, 200 + (uint32_t)(rng_float(&r) * 600), 1.0f, round % 2 ? 0.05f : 0.3f, &soup);
        float shift = (round % 3 == 1) ? 1e4f : 0.0f, scale = (round % 3 == 2) ? 1e-4f : 1.0f;
        for (uint32_t v = 0; v < 3 * soup.vertex_count; v++) soup.positions[v] = soup.positions[v] * scale + shift;
        compare_with_generic(ctx, &soup, "soup", worst);
        meshes++;
        test_mesh_free(&soup);
        RETURN_IF_FAILED();
    }
    for (int all = 0; all < 2; all++) { /* faces without area: the fallback axes must match the generic tree's too */
        test_mesh soup;
        test_mesh_soup(&r, 400, 1.0f, 0.3f, &soup);
        degenerate_soup(&soup, all);
        compare_with_generic(ctx, &soup, all ? "segment soup" : "partly degenerate soup", worst);
        meshes++;
        test_mesh_free(&soup);
    }
    { /* stacks of 8 identical faces: the split cannot divide a stack, so the median fallback runs (and the builder
       * rebuilds its corner records after it). A stack's inner nodes are single faces, flat and nearly isotropic
       * as the leaves above, so only the tree itself is compared, not the OBB sizes */
        test_mesh soup;
        test_mesh_soup(&r, 400, 1.0f, 0.3f, &soup);
        for (uint32_t t = 0; t < soup.triangle_count; t++) memcpy(soup.positions + 9 * t, soup.positions + 9 * (t & ~7u), 9 * sizeof(float));
        compare_with_generic_as(ctx, &soup, "stacked soup", worst, false);
        meshes++;
        test_mesh_free(&soup);
    }
    printf("  %d meshes, largest OBB ratio to the generic fit: inner %.6f, leaf %.6f; leaf sums: volume %.6f, surface "
           "%.6f\n", meshes, worst[0], worst[1], worst[2], worst[3]);
    snug_ctx_destroy(ctx);
}

/* Area-weighted covariance of faces ids[0, n) in double, per triangle as (area / 12)(sum_i v_i v_i^T + s s^T)
 * with s = sum_i v_i (v relative to the first corner), independently of the builder's per-face records. Returns
 * the area. */
static double tri_covariance(const test_mesh* m, const uint32_t* ids, uint32_t n, double cov[3][3]) {
    const float* r = m->positions + 3 * m->indices[3 * ids[0]];
    double area = 0.0, first[3] = {0, 0, 0}, second[3][3] = {{0}};
    for (uint32_t k = 0; k < n; k++) {
        double v[3][3], s[3];
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 3; i++) v[c][i] = (double)m->positions[3 * m->indices[3 * ids[k] + (uint32_t)c] + (uint32_t)i] - r[i];
        for (int i = 0; i < 3; i++) s[i] = v[0][i] + v[1][i] + v[2][i];
        double e1[3] = {v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]};
        double e2[3] = {v[2][0] - v[0][0], v[2][1] - v[0][1], v[2][2] - v[0][2]};
        double nx = e1[1] * e2[2] - e1[2] * e2[1], ny = e1[2] * e2[0] - e1[0] * e2[2], nz = e1[0] * e2[1] - e1[1] * e2[0];
        double a = 0.5 * sqrt(nx * nx + ny * ny + nz * nz);
        area += a;
        for (int i = 0; i < 3; i++) {
            first[i] += a * s[i] / 3.0;
            for (int j = 0; j < 3; j++)
                second[i][j] += a / 12.0 * (v[0][i] * v[0][j] + v[1][i] * v[1][j] + v[2][i] * v[2][j] + s[i] * s[j]);
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) cov[i][j] = area > 0.0 ? second[i][j] / area - first[i] * first[j] / (area * area) : 0.0;
    return area;
}

/* largest off-diagonal entry of a cov a^T relative to its largest diagonal one */
static double off_diagonal(const vec3* a, const double cov[3][3]) {
    double d[3][3], big = 0.0, off = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            d[i][j] = 0.0;
            for (int k = 0; k < 3; k++)
                for (int l = 0; l < 3; l++) d[i][j] += (double)a[i][k] * cov[k][l] * a[j][l];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (i == j) big = fmax(big, fabs(d[i][j]));
            else off = fmax(off, fabs(d[i][j]));
        }
    return big > 0.0 ? off / big : 0.0;
}

/* The splitter's node axes (snug_split_gottschalk_axes) from the builder's face records against the double
 * covariance: in their basis it is diagonal to 1e-4 of its largest entry (the float moments only steer, but an
 * error in a face's moments turns the axes by far more); the generic path (no records) gives the same bits.
 * Nodes of 1..8 faces (where one face's moments dominate), runs and scatters of the 11k dragon, and soups far from
 * the origin or tiny. */
static void test_node_axes_diagonalise_covariance(void) {
    rng r = {harness_seed() ^ 0xa7e5};
    int cases = 0, worst_case = -1;
    double worst = 0.0;
    for (int src = 0; src < 4; src++) {
        test_mesh m;
        if (src == 0) {
            if (!test_mesh_load("dragon11k", &m)) continue;
        } else {
            test_mesh_soup(&r, 3000, 1.0f, src == 1 ? 0.3f : 0.05f, &m);
            float shift = src == 2 ? 1e4f : 0.0f, scale = src == 3 ? 1e-4f : 1.0f;
            for (uint32_t v = 0; v < 3 * m.vertex_count; v++) m.positions[v] = m.positions[v] * scale + shift;
        }
        uint32_t T = m.triangle_count;
        snug_prim* prims = calloc(T, sizeof *prims);
        snug_prim* tmp = calloc(T, sizeof *tmp);
        uint32_t* ids = malloc(sizeof *ids * T);
        float* dist = malloc(sizeof *dist * T);
        float* records = malloc(sizeof *records * 2 * SNUG_OBB_RECORD * T);
        snug_bvh_def def = snug_default_bvh_def();
        snug_split_in gen = {m.positions, m.indices, &def, tmp, ids, dist, 1, NULL, NULL}, rec = gen;
        rec.corners = records, rec.corners_tmp = records + SNUG_OBB_RECORD * T;
        for (int it = 0; it < 100 * harness_scale(); it++) {
            uint32_t n = 1 + (uint32_t)(rng_next(&r) % (it % 3 == 0 ? 8 : it % 3 == 1 ? 300 : T - 1));
            uint32_t first = (uint32_t)(rng_next(&r) % (T - n + 1)), want[300 + 8];
            uint32_t* node = n <= 308 ? want : malloc(sizeof *node * n);
            for (uint32_t k = 0; k < n; k++) {
                node[k] = it % 2 ? (uint32_t)(rng_next(&r) % T) : first + k;
                prims[k].id = node[k];
            }
            double cov[3][3];
            if (tri_covariance(&m, node, n, cov) <= 0.0) goto next; /* no area: the general fit's axes */
            mat3 a, b;
            snug_split_gottschalk_records(&rec, prims, n);
            snug_split_gottschalk_axes(&rec, prims, n, a);
            snug_split_gottschalk_axes(&gen, prims, n, b);
            CHECK_MSG(memcmp(a, b, sizeof a) == 0, "source %d case %d (%u faces): the record and generic axes differ", src,
                      it, n);
            double off = off_diagonal((const vec3*)a, cov);
            CHECK_MSG(off <= 1e-4, "source %d case %d (%u faces): off-diagonal %.3g of the largest entry", src, it, n, off);
            if (off > worst) worst = off, worst_case = it;
            cases++;
        next:
            if (node != want) free(node);
            RETURN_IF_FAILED();
        }
        free(prims);
        free(tmp);
        free(ids);
        free(dist);
        free(records);
        test_mesh_free(&m);
    }
    printf("  %d nodes, largest off-diagonal %.3g of the largest entry (case %d)\n", cases, worst, worst_case);
}

/* Every inner node of the dedicated binary OBB path: its OBB axes diagonalise its faces' covariance summed here
 * in double (tri_covariance) to 1e-3 of the largest entry. A larger child's moments are mostly its parent's
 * minus its sibling's (snug_split_gottschalk_kids), a few times less accurate than a direct sum (worst seen
 * 2.3e-5 against 1.9e-6 on these trees), while a wrong shift or sign turns axes by far more. Leaves are test_node_axes_diagonalise_covariance's
 * (their faces are summed directly when they are the smaller child, and a one- or two-face leaf is nearly
 * isotropic in its plane). */
static void test_tree_axes_diagonalise_covariance(void) {
    snug_ctx* ctx = snug_ctx_create(NULL);
    rng r = {harness_seed() ^ 0x5ab7};
    double worst = 0.0;
    uint32_t nodes = 0;
    for (int src = 0; src < 2 + 3 * harness_scale(); src++) {
        test_mesh m;
        if (src < 2) {
            if (!test_mesh_load(src ? "dragon11k" : "bunny", &m)) continue;
        } else {
            test_mesh_soup(&r, 2000, 1.0f, src % 2 ? 0.3f : 0.05f, &m);
            float shift = src % 3 == 1 ? 1e4f : 0.0f, scale = src % 3 == 2 ? 1e-4f : 1.0f;
            for (uint32_t v = 0; v < 3 * m.vertex_count; v++) m.positions[v] = m.positions[v] * scale + shift;
        }
        snug_mesh h = make_gottschalk_tree(ctx, &m, SNUG_MEASURE_SURFACE);
        const snug_mesh_data* d = h ? snug_mesh_lookup(ctx, h) : NULL;
        for (uint32_t i = 0; d && i < d->bvh.node_count; i++) {
            if (SNUG_NODE_CHILDREN(d->bvh.nodes[i].info) == 0) continue;
            uint32_t first, count;
            snug_bvh_node_range(&d->bvh, i, &first, &count);
            double cov[3][3];
            if (tri_covariance(&m, d->tri_ids + first, count, cov) <= 0.0) continue;
            double off = off_diagonal((const vec3*)d->bvh.obbs[i].axes, cov);
            CHECK_MSG(off <= 1e-3, "source %d node %u (%u faces): off-diagonal %.3g of the largest entry", src, i, count, off);
            worst = fmax(worst, off);
            nodes++;
            if (off > 1e-3) break;
        }
        if (h) snug_mesh_destroy(ctx, h);
        test_mesh_free(&m);
        RETURN_IF_FAILED();
    }
    printf("  %u inner nodes, largest off-diagonal %.3g of the largest entry\n", nodes, worst);
    snug_ctx_destroy(ctx);
}

/* the binary Gottschalk split against the plane recomputed in double from snug_obb_fit's box */
static void test_gottschalk_split_is_the_box_plane(void) {
    test_mesh m;
    if (!test_mesh_load("dragon11k", &m)) return;
    rng r = {harness_seed() ^ 0x6077};
    uint32_t T = m.triangle_count;
    snug_prim* prims = malloc(sizeof *prims * T);
    snug_prim* tmp = malloc(sizeof *tmp * T);
    uint32_t* ids = malloc(sizeof *ids * T);
    float* dist = malloc(sizeof *dist * T);
    uint8_t* side = malloc(T);
    snug_bvh_def def = snug_default_bvh_def();
    snug_split_in in = {m.positions, m.indices, &def, tmp, ids, dist, 1};
    int cases = 60 * harness_scale(), unclear = 0, faces = 0;
    for (int it = 0; it < cases; it++) {
        /* a random subset: a contiguous run (like a node) or a scatter */
        uint32_t n = 2 + (uint32_t)(rng_next(&r) % (it % 3 == 0 ? T - 2 : 200));
        uint32_t first = (uint32_t)(rng_next(&r) % (T - n + 1));
        for (uint32_t k = 0; k < n; k++) {
            uint32_t id = it % 2 ? (uint32_t)(rng_next(&r) % T) : first + k;
            const uint32_t* t = m.indices + 3 * id;
            snug_prim* p = &prims[k];
            glm_vec3_broadcast(INFINITY, p->min);
            glm_vec3_broadcast(-INFINITY, p->max);
            for (int c = 0; c < 3; c++) {
                glm_vec3_minv(p->min, m.positions + 3 * t[c], p->min);
                glm_vec3_maxv(p->max, m.positions + 3 * t[c], p->max);
            }
            p->id = id;
            p->label = 7;
            ids[k] = id;
        }
        /* the reference plane in double */
        snug_tri_set set = {m.positions, m.indices, ids, 0, n};
        snug_obb box;
        snug_obb_fit(&set, false, &box);
        int a = 0;
        if (box.e[1] > box.e[a]) a = 1;
        if (box.e[2] > box.e[a]) a = 2;
        double cen = 0.0;
        for (int i = 0; i < 3; i++) cen += (double)box.axes[a][i] * box.c[i];
        double band = 1e-3 * box.e[a]; /* the splitter's axes come from float moments */
        uint64_t sum0 = 0, xor0 = 0; /* the records stay a permutation: id sum and hashed xor */
        for (uint32_t k = 0; k < n; k++) {
            const uint32_t* t = m.indices + 3 * prims[k].id;
            double mid = 0.0;
            for (int c = 0; c < 3; c++)
                for (int i = 0; i < 3; i++) mid += (double)box.axes[a][i] * m.positions[3 * t[c] + (uint32_t)i] / 3.0;
            side[prims[k].id] = mid > cen + band ? 1 : mid < cen - band ? 0 : 2;
            sum0 += prims[k].id;
            xor0 ^= (uint64_t)prims[k].id * 0x9e3779b97f4a7c15ull;
        }
        uint32_t sizes[2];
        snug_aabb boxes[2];
        int parts = snug_split_gottschalk(&in, prims, n, 2, sizes, boxes);
        if (parts < 2) { /* allowed only when every midpoint is on one side */
            int s0 = 0, s1 = 0;
            for (uint32_t k = 0; k < n; k++) s0 += side[prims[k].id] == 0, s1 += side[prims[k].id] == 1;
            CHECK_MSG(s0 == 0 || s1 == 0, "case %d: no split of %u faces, %d / %d clearly apart", it, n, s0, s1);
            continue;
        }
        CHECK(parts == 2 && sizes[0] + sizes[1] == n && sizes[0] > 0 && sizes[1] > 0);
        uint64_t sum1 = 0, xor1 = 0;
        for (uint32_t k = 0; k < n; k++) {
            int got = k >= sizes[0], want = side[prims[k].id];
            faces++;
            unclear += want == 2;
            CHECK_MSG(want == 2 || got == want, "case %d (%u faces): face %u on side %d, its midpoint is on %d", it, n,
                      prims[k].id, got, want);
            sum1 += prims[k].id;
            xor1 ^= (uint64_t)prims[k].id * 0x9e3779b97f4a7c15ull;
        }
        CHECK(sum0 == sum1 && xor0 == xor1);
        for (int p = 0; p < 2; p++) { /* the parts' boxes are their exact AABBs */
            snug_aabb want;
            snug_prims_bounds(prims + (p ? sizes[0] : 0), sizes[p], &want);
            CHECK(memcmp(&want, &boxes[p], sizeof want) == 0);
        }
        RETURN_IF_FAILED();
    }
    printf("  %d cases, %d faces, %d within the 1e-3 band of the plane\n", cases, faces, unclear);
    CHECK(unclear * 100 <= faces); /* the band is narrow: the check decides nearly every face */
    free(prims);
    free(tmp);
    free(ids);
    free(dist);
    free(side);
    test_mesh_free(&m);
}

int main(void) {
    RUN(test_tree_obbs_contain_exactly);
    RUN(test_gottschalk_split_is_the_box_plane);
    RUN(test_obb_path_matches_generic);
    RUN(test_node_axes_diagonalise_covariance);
    RUN(test_tree_axes_diagonalise_covariance);
    return harness_finish();
}
