// The native anchor of `make bench`: FCL 0.7 (Debian libfcl-dev) on the same meshes and poses as snug.
//   fcl_bench build|pairs|far|toi
// BVH build of OBBRSS and AABB trees, mesh-mesh collide (first contact) and distance, and conservative-
// advancement continuous collision. Rows go to stdout in the format of tests/bench/timing.h.
#define _POSIX_C_SOURCE 200809L
#include <fcl/fcl.h>

#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "timing.h"
}

namespace {

struct Mesh {
    std::vector<float> positions;
    std::vector<fcl::Vector3d> verts;
    std::vector<fcl::Triangle> tris;
};

bool load(const std::string& name, Mesh& m) {
    std::string path = "build/meshes/" + name + ".bin";
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) {
        fprintf(stderr, "fcl_bench: %s missing (make meshes)\n", path.c_str());
        return false;
    }
    char magic[8];
    uint32_t counts[2];
    bool ok = fread(magic, 1, 8, f) == 8 && fread(counts, 4, 2, f) == 2;
    if (ok) {
        m.positions.resize(3 * (size_t)counts[0]);
        std::vector<uint32_t> idx(3 * (size_t)counts[1]);
        ok = fread(m.positions.data(), 12, counts[0], f) == counts[0] && fread(idx.data(), 12, counts[1], f) == counts[1];
        for (uint32_t v = 0; v < counts[0]; ++v)
            m.verts.emplace_back(m.positions[3 * v], m.positions[3 * v + 1], m.positions[3 * v + 2]);
        for (uint32_t t = 0; t < counts[1]; ++t) m.tris.emplace_back(idx[3 * t], idx[3 * t + 1], idx[3 * t + 2]);
    }
    fclose(f);
    return ok;
}

template <typename BV>
std::shared_ptr<fcl::BVHModel<BV>> build_model(const Mesh& m) {
    auto model = std::make_shared<fcl::BVHModel<BV>>();
    model->beginModel((int)m.tris.size(), (int)m.verts.size());
    model->addSubModel(m.verts, m.tris);
    model->endModel();
    return model;
}

fcl::Transform3d pair_pose(const Mesh& m, double angle, double shift) {
    double R[9], t[3];
    bench_pair_pose(m.positions.data(), (unsigned)(m.positions.size() / 3), angle, shift, R, t, nullptr);
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d rot;
    rot << R[0], R[1], R[2], R[3], R[4], R[5], R[6], R[7], R[8];
    tf.linear() = rot;
    tf.translation() = fcl::Vector3d(t[0], t[1], t[2]);
    return tf;
}

template <typename F>
bench_stats measure(F& f, int reps, double budget) {
    return bench_measure([](void* p) { (*static_cast<F*>(p))(); }, &f, reps, budget);
}

template <typename BV>
void bench_build(const Mesh& m, const char* mesh, const char* impl, int reps, double budget) {
    auto f = [&]() { build_model<BV>(m); };
    bench_stats st = measure(f, reps, budget);
    bench_row("build", mesh, impl, &st, "ok", NAN, "BVHModel beginModel/addSubModel/endModel");
}

void task_build() {
    const char* meshes[] = {"bunny", "dragon11k", "dragon48k", "dragon203k", "dragon871k", "torusknot10k"};
    for (const char* name : meshes) {
        Mesh m;
        if (!load(name, m)) continue;
        bool big = m.tris.size() > 300000;
        bench_build<fcl::OBBRSSd>(m, name, "FCL native OBBRSS", big ? 2 : 5, big ? 4000 : 800);
        bench_build<fcl::AABBd>(m, name, "FCL native AABB", big ? 2 : 5, big ? 4000 : 800);
    }
}

struct PairCase {
    const char* mesh;
    double angle, shift;
    const char* name;
};
const PairCase PAIR_CASES[] = {
    {"dragon11k", 0.3, 0.05, "dragon11k shift 5%"},   {"dragon11k", 0.3, 0.4, "dragon11k shift 40%"},
    {"dragon11k", 0.3, 1.5, "dragon11k shift 150%"},  {"dragon48k", 0.3, 0.05, "dragon48k shift 5%"},
    {"dragon48k", 0.3, 0.4, "dragon48k shift 40%"},   {"dragon48k", 0.3, 1.5, "dragon48k shift 150%"},
    {"torusknot10k", 0.01, 0.001, "torusknot10k near-coincident"},
};

template <typename BV>
void bench_collide(const std::shared_ptr<fcl::BVHModel<BV>>& model, const fcl::Transform3d& tb, const char* cas,
                   const char* impl) {
    fcl::CollisionObjectd a(model, fcl::Transform3d::Identity()), b(model, tb);
    fcl::CollisionRequestd req; // num_max_contacts = 1: first contact, early exit
    bool hit = false;
    auto f = [&]() {
        fcl::CollisionResultd res;
        fcl::collide(&a, &b, req, res);
        hit = res.isCollision();
    };
    bench_stats st = measure(f, 5, 500);
    bench_row("overlap", cas, impl, &st, "ok", hit ? 1.0 : 0.0, "fcl::collide, num_max_contacts 1");
}

template <typename BV>
void bench_distance(const std::shared_ptr<fcl::BVHModel<BV>>& model, const fcl::Transform3d& tb, const char* cas,
                    const char* impl) {
    fcl::CollisionObjectd a(model, fcl::Transform3d::Identity()), b(model, tb);
    fcl::DistanceRequestd req(true); // with nearest points, like snug's result
    double d = NAN;
    auto f = [&]() {
        fcl::DistanceResultd res;
        fcl::distance(&a, &b, req, res);
        d = res.min_distance;
    };
    bench_stats st = measure(f, 3, 500);
    bench_row("distance", cas, impl, &st, "ok", d < 0 ? 0.0 : d,
              "fcl::distance, enable_nearest_points (FCL reports -1 for intersecting meshes; shown as 0)");
}

void task_pairs() {
    for (const PairCase& pc : PAIR_CASES) {
        Mesh m;
        if (!load(pc.mesh, m)) continue;
        auto obbrss = build_model<fcl::OBBRSSd>(m);
        auto aabb = build_model<fcl::AABBd>(m);
        fcl::Transform3d tb = pair_pose(m, pc.angle, pc.shift);
        bench_collide(obbrss, tb, pc.name, "FCL native OBBRSS");
        bench_collide(aabb, tb, pc.name, "FCL native AABB");
        bench_distance(obbrss, tb, pc.name, "FCL native OBBRSS");
    }
}

// The far-apart distance cases of snug_bench.c (task far): teapot and torus knot, bounding spheres 3, 30 and 1000
// units apart along the diagonal.
void task_far() {
    Mesh a, b;
    if (!load("teapot", a) || !load("torusknot10k", b)) return;
    auto ma = build_model<fcl::OBBRSSd>(a), mb = build_model<fcl::OBBRSSd>(b);
    const struct {
        double gap;
        const char* name;
    } cases[] = {{3.0, "teapot x torusknot10k, 3 apart on the diagonal"},
                 {30.0, "teapot x torusknot10k, 30 apart on the diagonal"},
                 {1000.0, "teapot x torusknot10k, 1000 apart on the diagonal"}};
    for (const auto& c : cases) {
        double t[3];
        bench_far_pose(a.positions.data(), (unsigned)(a.positions.size() / 3), b.positions.data(),
                       (unsigned)(b.positions.size() / 3), c.gap, t);
        fcl::Transform3d tb = fcl::Transform3d::Identity();
        tb.translation() = fcl::Vector3d(t[0], t[1], t[2]);
        fcl::CollisionObjectd oa(ma, fcl::Transform3d::Identity()), ob(mb, tb);
        fcl::DistanceRequestd req(true);
        double d = NAN;
        auto f = [&]() {
            fcl::DistanceResultd res;
            fcl::distance(&oa, &ob, req, res);
            d = res.min_distance;
        };
        bench_stats st = measure(f, 5, 300);
        bench_row("distance-far", c.name, "FCL native OBBRSS", &st, "ok", d < 0 ? 0.0 : d,
                  "fcl::distance, enable_nearest_points");
    }
}

// Conservative advancement: the moving copy from 150 % to 5 % of the diagonal while turning 0 -> 0.6 rad about Y.
void task_toi() {
    Mesh m;
    if (!load("dragon48k", m)) return;
    auto model = build_model<fcl::OBBRSSd>(m);
    fcl::Transform3d t0 = pair_pose(m, 0.0, 1.5), t1 = pair_pose(m, 0.6, 0.05), id = fcl::Transform3d::Identity();
    fcl::ContinuousCollisionRequestd req;
    req.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
    req.ccd_motion_type = fcl::CCDM_SCREW;
    req.gjk_solver_type = fcl::GST_LIBCCD;
    fcl::ContinuousCollisionResultd res;
    auto f = [&]() {
        res = fcl::ContinuousCollisionResultd();
        fcl::continuousCollide(model.get(), id, id, model.get(), t0, t1, req, res);
    };
    bench_stats st = measure(f, 2, 3000);
    // The end pose overlaps (static collide says so), so a correct answer is a contact with t < 1.
    fcl::CollisionObjectd a(model, id), b(model, t1);
    fcl::CollisionRequestd creq;
    fcl::CollisionResultd cres;
    fcl::collide(&a, &b, creq, cres);
    char note[200];
    snprintf(note, sizeof note,
             "fcl::continuousCollide, conservative advancement, screw motion, OBBRSS: is_collide=%d, time_of_contact=%.4f; "
             "static collide at the end pose: %s",
             (int)res.is_collide, res.time_of_contact, cres.isCollision() ? "overlap" : "no overlap");
    bool wrong = cres.isCollision() && !res.is_collide;
    bench_row("toi", "dragon48k 150%->5%, 0.6 rad", "FCL native OBBRSS conservative advancement", &st,
              wrong ? "wrong" : "ok", res.is_collide ? res.time_of_contact : NAN, note);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fcl_bench build|pairs|far|toi\n");
        return 2;
    }
    std::string task = argv[1];
    if (task == "build") task_build();
    else if (task == "pairs") task_pairs();
    else if (task == "far") task_far();
    else if (task == "toi") task_toi();
    else return 2;
    return 0;
}
