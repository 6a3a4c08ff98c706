// The generator's rank order (`rank-order`): STAGE's data-parallel-fastest numbering (the default) or
// Megatron-LM's "tp-cp-ep-dp-pp" (tensor-parallel fastest, then context, data, pipeline). The group
// members below are worked out by hand from the two formulas in docs/generate.md.
#include "core/generate/parallel_layout.h"
#include "core/generate/read_params.h"
#include "core/generate/transformer.h"
#include "core/trace/trace_reader.h"
#include "generate/generate_test_util.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace astrolabe;
using namespace astrolabe::generate;
using namespace astrolabe::generate::test_util;

TEST_CASE("rank order tp-first: Megatron's numbering and its groups", "[generate][rank-order]") {
    // dp 2 x tp 4 x pp 2 = 16 ranks, rank = tp + 4 (dp + 2 pp): ranks 0-3 are (dp 0, pp 0), 4-7 (dp 1,
    // pp 0), 8-11 (dp 0, pp 1), 12-15 (dp 1, pp 1). Group ids are numbered by coordinates, so they are the
    // same in both orders: data ids 1..8 (index tp + 4 pp), tensor ids 9..12 (index dp + 2 pp).
    //   data   1 {0,4}  2 {1,5}  3 {2,6}  4 {3,7}  5 {8,12}  6 {9,13}  7 {10,14}  8 {11,15}
    //   tensor 9 {0,1,2,3}  10 {4,5,6,7}  11 {8,9,10,11}  12 {12,13,14,15}
    TransformerParams p = params({{"dp", "2"}, {"tp", "4"}, {"pp", "2"}, {"rank-order", "tp-first"}});
    const ParallelLayout l(p);
    CHECK(l.comm_groups_json() == R"({"1":[0,4],"2":[1,5],"3":[2,6],"4":[3,7],"5":[8,12],"6":[9,13],)"
                                  R"("7":[10,14],"8":[11,15],"9":[0,1,2,3],"10":[4,5,6,7],"11":[8,9,10,11],)"
                                  R"("12":[12,13,14,15]})");
    // Rank 6 = tp 2 + 4 (dp 1 + 2 pp 0): its tensor group is 10, its data group 3 (tp 2, pp 0).
    const RankCoord c = l.coord(6);
    CHECK(c.tp == 2);
    CHECK(c.dp == 1);
    CHECK(c.sp == 0);
    CHECK(c.pp == 0);
    CHECK(l.pg_name(GroupKind::Tensor, 6) == "10");
    CHECK(l.pg_name(GroupKind::Data, 6) == "3");
    for (uint32_t r = 0; r < l.npus(); ++r)
        CHECK(l.rank(l.coord(r)) == r);
    // The pipeline peer is the same coordinates one stage on: 8 ranks (dp x tp) away in both orders.
    RankCoord next = c;
    next.pp = 1;
    CHECK(l.rank(next) == 14);

    SECTION("the default, dp-first, is STAGE's: rank = dp + 2 (tp + 4 pp)") {
        TransformerParams q = params({{"dp", "2"}, {"tp", "4"}, {"pp", "2"}});
        CHECK(q.rank_order == RankOrder::DpFirst);
        const ParallelLayout d(q);
        // Tensor groups stride by dp: {0,2,4,6}, {1,3,5,7}, {8,10,12,14}, {9,11,13,15}.
        CHECK(d.comm_groups_json() == R"({"1":[0,1],"2":[2,3],"3":[4,5],"4":[6,7],"5":[8,9],"6":[10,11],)"
                                      R"("7":[12,13],"8":[14,15],"9":[0,2,4,6],"10":[1,3,5,7],)"
                                      R"("11":[8,10,12,14],"12":[9,11,13,15]})");
        TransformerParams named = params({{"dp", "2"}, {"tp", "4"}, {"pp", "2"}, {"rank-order", "dp-first"}});
        CHECK(ParallelLayout(named).comm_groups_json() == d.comm_groups_json());
    }
    SECTION("context parallelism sits between tp and dp (Megatron's cp)") {
        // dp 2 x tp 2 x sp 2: rank = tp + 2 (sp + 2 dp). Data groups (sharing tp, sp; index tp + 2 sp)
        // 1 {0,4} 2 {1,5} 3 {2,6} 4 {3,7}; tensor (index dp + 2 sp) 5 {0,1} 6 {4,5} 7 {2,3} 8 {6,7};
        // context (sharing dp, tp; index dp + 2 tp) 9 {0,2} 10 {4,6} 11 {1,3} 12 {5,7}.
        TransformerParams s = params({{"dp", "2"},
                                      {"tp", "2"},
                                      {"sp", "2"},
                                      {"seq", "512"},
                                      {"batch", "2"},
                                      {"rank-order", "tp-first"}});
        const ParallelLayout ls(s);
        CHECK(ls.comm_groups_json() == R"({"1":[0,4],"2":[1,5],"3":[2,6],"4":[3,7],"5":[0,1],"6":[4,5],)"
                                       R"("7":[2,3],"8":[6,7],"9":[0,2],"10":[4,6],"11":[1,3],"12":[5,7]})");
    }
    SECTION("experts: EP consecutive data coordinates, as Megatron's expert ranks tp-ep-dp-pp") {
        // dp 4 x tp 2, ep 2, 2 experts: rank = tp + 2 dp. Megatron's expert generator numbers the same
        // ranks tp + 2 (ep + 2 edp): expert groups vary ep {0,2} {1,3} {4,6} {5,7}, expert-data groups vary
        // edp {0,4} {1,5} {2,6} {3,7}. Ours (index dp / 2 + 2 tp; dp % 2 + 2 tp) give the same sets.
        TransformerParams m = params({{"dp", "4"},
                                      {"tp", "2"},
                                      {"experts", "2"},
                                      {"ep", "2"},
                                      {"batch", "4"},
                                      {"rank-order", "tp-first"}});
        const ParallelLayout lm(m);
        CHECK(lm.comm_groups_json() == R"({"1":[0,2,4,6],"2":[1,3,5,7],"3":[0,1],"4":[2,3],"5":[4,5],)"
                                       R"("6":[6,7],"7":[0,2],"8":[4,6],"9":[1,3],"10":[5,7],"11":[0,4],)"
                                       R"("12":[2,6],"13":[1,5],"14":[3,7]})");
    }
}

namespace {

// `bytes` (a tp-first trace of layout `from`) without its rank_order metadata and with every send/recv
// peer renumbered as layout `to` numbers the same coordinates, re-encoded.
std::string renumber_peers(const std::string& bytes, const ParallelLayout& from, const ParallelLayout& to) {
    auto t = trace::decode_trace(bytes, "t");
    REQUIRE(t.is_ok());
    // The order named in the metadata (tp-first files only; dp-first ones carry nothing new).
    auto& attrs = t.value().metadata.attrs;
    auto named = std::find_if(attrs.begin(), attrs.end(), [](const trace::Attribute& a) {
        return a.name == "rank_order" && a.strings == std::vector<std::string>{"tp-first"};
    });
    CHECK(named != attrs.end());
    if (named != attrs.end()) attrs.erase(named);
    for (trace::Node& n : t.value().nodes) {
        std::optional<uint32_t>* peer = n.type == trace::NodeType::CommSend   ? &n.comm_dst
                                        : n.type == trace::NodeType::CommRecv ? &n.comm_src
                                                                              : nullptr;
        if (!peer) continue;
        **peer = to.rank(from.coord(**peer));
        for (auto& a : n.attrs)
            if (a.name == (n.type == trace::NodeType::CommSend ? "comm_dst" : "comm_src")) a.ints[0] = **peer;
    }
    return trace::encode_trace(t.value());
}

} // namespace

TEST_CASE("rank order tp-first: a rank's trace is the dp-first trace of the same coordinates",
          "[generate][rank-order]") {
    // Group ids follow coordinates and pipeline peers are the same coordinates one stage away, so the
    // rank with coordinates c writes, under tp-first, the trace dp-first writes for c, its send/recv
    // peers numbered in its own order. Checked byte for byte on the streamed output (built once per stage
    // and retargeted), with every group kind of a dense plan and pipeline peers.
    const std::vector<std::pair<std::string, std::string>> base = {
        {"layers", "4"}, {"hidden", "64"}, {"heads", "4"},       {"vocab", "128"},
        {"seq", "32"},   {"batch", "8"},   {"micro-batch", "4"}, {"dp", "2"},
        {"tp", "2"},     {"pp", "2"},      {"sp", "2"}};
    auto tp_named = base;
    tp_named.push_back({"rank-order", "tp-first"});
    const TransformerParams dp_first = params(base), tp_first = params(tp_named);
    MemorySink a = generate_all(dp_first), b = generate_all(tp_first);
    const ParallelLayout ld(dp_first), lt(tp_first);
    for (uint32_t r = 0; r < lt.npus(); ++r) {
        const uint32_t same = ld.rank(lt.coord(r));
        INFO("tp-first rank " << r << " = dp-first rank " << same);
        // Compared as bools: a failure prints the ranks, not two protobuf blobs.
        const bool as_dp_first = renumber_peers(b.ranks[r], lt, ld) == a.ranks[same];
        const bool as_built = b.ranks[r] == trace::encode_trace(transformer_trace(tp_first, lt, r));
        CHECK(as_dp_first);
        CHECK(as_built);
    }
    const bool rank1_differs = b.ranks[1] != a.ranks[1]; // tp 1 here, dp 1 there: different groups
    CHECK(rank1_differs);
    CHECK(b.comm_groups != a.comm_groups);
}

TEST_CASE("rank order: read as a parameter, misspellings named with the nearest value",
          "[generate][rank-order]") {
    TransformerParams p;
    Status st = read_params(p, {{"dp", "2"}, {"rank-order", "tp-frist"}});
    REQUIRE_FALSE(st.is_ok());
    CHECK(st.message() ==
          "rank-order: 'tp-frist'; dp-first or tp-first was expected (did you mean 'tp-first'?)");
    Status far = read_params(p, {{"rank-order", "megatron"}});
    REQUIRE_FALSE(far.is_ok());
    CHECK(far.message() == "rank-order: 'megatron'; dp-first or tp-first was expected");
    Status model = read_params(p, {{"model", "lama"}});
    CHECK(model.message() == "model: 'lama'; gpt or llama was expected (did you mean 'llama'?)");
    CHECK(rank_order_names() == std::vector<std::string>{"dp-first", "tp-first"});
    TransformerParams ok;
    REQUIRE(read_params(ok, {{"rank-order", "tp-first"}}).is_ok());
    CHECK(ok.rank_order == RankOrder::TpFirst);
    CHECK_THAT(plan_text(params({{"dp", "2"}, {"tp", "2"}, {"rank-order", "tp-first"}})),
               Catch::Matchers::Contains("dp 2 x tp 2 x sp 1 x pp 1, ranks tp-first (Megatron's order)"));
}
