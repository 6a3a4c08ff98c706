// Decoding Chakra execution traces: real files from four writers, gzip, hostile input, and round trips.
//
// Expected node contents come from shared/traces/examples-json, the same files decoded independently with
// Python protobuf (json_format), and from shared/traces/README.md's per-file summary.
#include "core/trace/gzip.h"
#include "core/trace/trace_reader.h"
#include "core/trace/wire.h"
#include "support/test_support.h"
#include "support/trace_builder.h"

#include <catch2/catch.hpp>
#include <zlib.h>

#include <algorithm>
#include <cstring>

using namespace astrolabe;
using namespace astrolabe::trace;
using Catch::Matchers::Contains;

namespace {

Trace decode_ok(const std::string& bytes, const std::string& name, const ReadOptions& opt = {}) {
    auto r = decode_trace(bytes, name, opt);
    INFO(r.status().message());
    REQUIRE(r.is_ok());
    return r.value();
}

// gzip-compresses with zlib (windowBits 16 + 15 = gzip wrapper), as `gzip` or Python's gzip module would.
std::string gzip(const std::string& in) {
    z_stream zs{};
    REQUIRE(deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(&out[0]);
    zs.avail_out = static_cast<uInt>(out.size());
    REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

const Node* find_node(const Trace& t, uint64_t id) {
    for (const auto& n : t.nodes)
        if (n.id == id) return &n;
    return nullptr;
}

} // namespace

TEST_CASE("trace reader: ASTRA-sim microbenchmark (one 1 MiB ALL_REDUCE node)", "[trace]") {
    // examples-json/astra-sim_all_reduce_8npus_1MB.0.json: version "0.0.4", one COMM_COLL_NODE named
    // all_reduce_8npus_1MB with comm_type 0 (ALL_REDUCE), comm_size 1048576, is_cpu_op false; id 0.
    Trace t = decode_ok(
        test::read_data("traces/astra-sim-microbenchmarks/all_reduce/8npus_1MB/all_reduce.0.et"), "ar.0.et");
    CHECK(t.metadata.version == "0.0.4");
    REQUIRE(t.nodes.size() == 1);
    const Node& n = t.nodes[0];
    CHECK(n.id == 0);
    CHECK(n.name == "all_reduce_8npus_1MB");
    CHECK(n.type == NodeType::CommColl);
    CHECK(n.collective() == CollectiveType::AllReduce);
    CHECK(n.comm_size == uint64_t(1048576));
    CHECK_FALSE(n.is_cpu_op);
}

TEST_CASE("trace reader: STAGE trace with pg_name and int32 is_cpu_op and forward deps", "[trace]") {
    // examples-json/stage_gpt_dp2tp2pp2_4l.workload.0.json: 348 nodes (250 COMP, 90 COMM_COLL, 4 SEND,
    // 4 RECV), ids 2..1473, 469 data deps, no ctrl deps; metadata attr schema = symbolic_tensor_network.
    Trace t = decode_ok(test::read_data("traces/stage/gpt_dp2tp2pp2_4l/workload.0.et"), "workload.0.et");
    REQUIRE(t.nodes.size() == 348);
    size_t by_type[kNodeTypeCount] = {};
    size_t data_deps = 0, ctrl_deps = 0;
    uint64_t min_id = UINT64_MAX, max_id = 0;
    for (const auto& n : t.nodes) {
        ++by_type[static_cast<int>(n.type)];
        data_deps += n.data_deps.size();
        ctrl_deps += n.ctrl_deps.size();
        min_id = std::min(min_id, n.id);
        max_id = std::max(max_id, n.id);
    }
    CHECK(by_type[int(NodeType::Comp)] == 250);
    CHECK(by_type[int(NodeType::CommColl)] == 90);
    CHECK(by_type[int(NodeType::CommSend)] == 4);
    CHECK(by_type[int(NodeType::CommRecv)] == 4);
    CHECK(data_deps == 469);
    CHECK(ctrl_deps == 0);
    CHECK(min_id == 2);
    CHECK(max_id == 1473);
    REQUIRE(t.metadata.attrs.size() == 1);
    CHECK(t.metadata.attrs[0].name == "schema");
    CHECK(t.metadata.attrs[0].strings == std::vector<std::string>{"symbolic_tensor_network"});

    // The first node in the file: id 2, COMP, num_ops 1310720, tensor_size 262144, depends on 174 (a
    // forward reference: 174 comes later in the file).
    const Node& first = t.nodes[0];
    CHECK(first.id == 2);
    CHECK(first.name == "mb0.transformer.0.input_norm.y@0_COMP");
    CHECK(first.num_ops == uint64_t(1310720));
    CHECK(first.tensor_size == uint64_t(262144));
    CHECK(first.data_deps == std::vector<uint64_t>{174});
    // Node 8: ALL_GATHER (comm_type 2) of 262144 bytes in communicator group "5", is_cpu_op as int32 0.
    const Node* ag = find_node(t, 8);
    REQUIRE(ag != nullptr);
    CHECK(ag->collective() == CollectiveType::AllGather);
    CHECK(ag->comm_size == uint64_t(262144));
    CHECK(ag->pg_name == std::string("5"));
    CHECK_FALSE(ag->is_cpu_op);
    // Node 1467: a send of 262144 bytes to rank 4 with tag 729579.
    const Node* send = find_node(t, 1467);
    REQUIRE(send != nullptr);
    CHECK(send->type == NodeType::CommSend);
    CHECK(send->comm_dst == uint32_t(4));
    CHECK(send->comm_tag == uint32_t(729579));
}

TEST_CASE("trace reader: every attribute kind is kept verbatim on request", "[trace]") {
    // examples-json/chakra-generator_one_metadata_node_all_types.0.json: one METADATA_NODE carrying all 30
    // AttributeProto kinds (double .. bytes_list), version "1.0.0". E.g. sint64 = -9876543210,
    // uint64_list = [9876543210, 1234567890], bool_list of 10 alternating values, bytes "12345".
    ReadOptions opt;
    opt.keep_attributes = true;
    Trace t =
        decode_ok(test::read_data("traces/chakra-generator/npus8_defaults/one_metadata_node_all_types.0.et"),
                  "meta.0.et", opt);
    CHECK(t.metadata.version == "1.0.0");
    REQUIRE(t.nodes.size() == 1);
    const auto& attrs = t.nodes[0].attrs;
    REQUIRE(attrs.size() == 30);
    auto attr = [&attrs](const std::string& name) -> const Attribute& {
        auto it =
            std::find_if(attrs.begin(), attrs.end(), [&](const Attribute& a) { return a.name == name; });
        REQUIRE(it != attrs.end());
        return *it;
    };
    CHECK(attr("sint64").kind == AttrKind::Sint64);
    CHECK(attr("sint64").ints == std::vector<int64_t>{-9876543210LL});
    CHECK(attr("uint64_list").uints == std::vector<uint64_t>{9876543210ULL, 1234567890ULL});
    CHECK(attr("bool_list").uints.size() == 10);
    CHECK(attr("bytes").strings == std::vector<std::string>{"12345"});
    CHECK(attr("double").reals == std::vector<double>{1.2345});
    CHECK(attr("double").doc_string == "double");
    // Without keep_attributes nothing is kept (the simulator does not need them).
    CHECK(decode_ok(
              test::read_data("traces/chakra-generator/npus8_defaults/one_metadata_node_all_types.0.et"), "m")
              .nodes[0]
              .attrs.empty());
}

TEST_CASE("trace reader: gzip-compressed traces are accepted", "[trace]") {
    // The custom-collective ET (35 nodes: 14 sends, 14 receives, 7 computes) compressed with zlib decodes
    // to the same nodes as the plain file.
    std::string plain = test::read_data(
        "traces/astra-sim-custom-collective/custom_ring_allreduce_8npus_1MB/custom_allreduce.0.et");
    std::string gz = gzip(plain);
    REQUIRE(looks_gzipped(gz));
    REQUIRE_FALSE(looks_gzipped(plain));
    Trace a = decode_ok(plain, "plain");
    Trace b = decode_ok(gz, "gz");
    REQUIRE(a.nodes.size() == 35);
    REQUIRE(b.nodes.size() == 35);
    for (size_t i = 0; i < a.nodes.size(); ++i) {
        CHECK(a.nodes[i].id == b.nodes[i].id);
        CHECK(a.nodes[i].type == b.nodes[i].type);
        CHECK(a.nodes[i].data_deps == b.nodes[i].data_deps);
        CHECK(a.nodes[i].comm_size == b.nodes[i].comm_size);
    }
    // examples-json/astra-sim_custom_allreduce.0.json: node 1 receives 131072 bytes from rank 7, tag 0,
    // after node 0; node 2 is a 7 us compute.
    CHECK(b.nodes[1].type == NodeType::CommRecv);
    CHECK(b.nodes[1].comm_src == uint32_t(7));
    CHECK(b.nodes[1].comm_size == uint64_t(131072));
    CHECK(b.nodes[2].duration_micros == 7);

    SECTION("a truncated gzip stream is an error, and so is one larger than the bound") {
        auto cut = decode_trace(gz.substr(0, gz.size() / 2), "cut.gz");
        REQUIRE_FALSE(cut.is_ok());
        CHECK_THAT(cut.status().message(),
                   Contains("cut.gz: gzip: the compressed stream is corrupt or truncated"));
        ReadOptions small;
        small.max_decompressed_bytes = 1000; // the plain file is 29581 bytes
        auto big = decode_trace(gz, "big.gz", small);
        REQUIRE_FALSE(big.is_ok());
        CHECK_THAT(big.status().message(), Contains("exceeds the limit of 1000 bytes"));
    }
}

TEST_CASE("trace reader: a gzip bomb is refused at 256 times its compressed size", "[trace]") {
    // 96 MiB of zeros deflate to about 100 KB: inflating past max(64 MiB, 256 x compressed) is refused
    // before the whole file is in memory.
    std::string gz = gzip(std::string(size_t(96) << 20, '\0'));
    REQUIRE(gz.size() * 256 < (size_t(64) << 20)); // so the 64 MiB floor is the bound in force
    auto r = decode_trace(gz, "bomb.et.gz");
    REQUIRE_FALSE(r.is_ok());
    CHECK_THAT(r.status().message(),
               Contains("bomb.et.gz: gzip: decompressed size exceeds the limit of 67108864 "
                        "bytes (256 times the compressed"));
    // A file under the floor is not refused by the ratio: 1 MiB of zeros (about 1000 to 1) inflates and
    // fails later, as zeros are not a trace.
    auto small = decode_trace(gzip(std::string(size_t(1) << 20, '\0')), "zeros.et.gz");
    REQUIRE_FALSE(small.is_ok());
    CHECK_THAT(small.status().message(), Contains("zeros.et.gz: message 1 at byte 1 is empty"));
}

TEST_CASE("trace reader: truncated and garbage input give an error and never a crash", "[trace]") {
    const std::string stage = test::read_data("traces/stage/gpt_dp4_8l/workload.0.et");

    SECTION("empty input") {
        auto r = decode_trace("", "empty.et");
        REQUIRE_FALSE(r.is_ok());
        CHECK_THAT(r.status().message(), Contains("empty.et: the file is empty"));
    }
    SECTION("every cut through the last message is reported as truncated") {
        // Cutting k bytes off the end leaves the last message's length prefix promising more than remains.
        for (size_t k = 1; k <= 40; ++k) {
            auto r = decode_trace(std::string_view(stage).substr(0, stage.size() - k), "cut.et");
            INFO("cut " << k);
            REQUIRE_FALSE(r.is_ok());
            CHECK_THAT(r.status().message(), Contains("remain (truncated file?)"));
        }
    }
    SECTION("cuts anywhere: a clean prefix at message boundaries, an error everywhere else") {
        // Walk the varint length framing to find where each message ends. A file cut exactly there is a
        // valid shorter trace (k messages = metadata + k - 1 nodes); a cut anywhere else is an error.
        const std::string small = test::read_data("traces/stage/gpt_dp2tp2pp2_4l/workload.0.et");
        std::vector<size_t> ends;
        for (size_t pos = 0; pos < small.size();) {
            uint64_t len = 0;
            REQUIRE(read_varint(small, pos, len));
            pos += len;
            ends.push_back(pos);
        }
        REQUIRE(ends.size() == 349); // metadata + 348 nodes
        for (size_t k = 1; k < ends.size(); k += 7) {
            auto r = decode_trace(std::string_view(small).substr(0, ends[k - 1]), "cut.et");
            INFO("cut after message " << k);
            REQUIRE(r.is_ok());
            CHECK(r.value().nodes.size() == k - 1);
        }
        for (size_t len = 1; len < small.size(); len += 997) {
            if (std::find(ends.begin(), ends.end(), len) != ends.end()) continue;
            INFO("cut at byte " << len);
            CHECK_FALSE(decode_trace(std::string_view(small).substr(0, len), "cut.et").is_ok());
        }
    }
    SECTION("pseudo-random bytes") {
        // A fixed LCG so the input is the same on every run; 50 buffers of 1..4000 bytes.
        uint64_t x = 12345;
        for (int round = 0; round < 50; ++round) {
            std::string junk;
            size_t len = 1 + static_cast<size_t>(x % 4000);
            for (size_t i = 0; i < len; ++i) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                junk += static_cast<char>(x >> 56);
            }
            if (looks_gzipped(junk)) junk[0] = 0; // keep the test about framing, not gzip
            auto r = decode_trace(junk, "junk.et");
            CHECK_FALSE(r.is_ok());
        }
    }
    SECTION("a trace of the old 0.0.1-0.0.3 schema is recognised and refused") {
        // Old traces start with a Node (field 1 = id as a varint), not a GlobalMetadata: bytes 08 05 = id 5.
        auto r = decode_trace(std::string("\x02\x08\x05", 3), "old.et");
        REQUIRE_FALSE(r.is_ok());
        CHECK_THAT(r.status().message(), Contains("old 0.0.1-0.0.3 schema"));
    }
    SECTION("the node bound stops a file with too many nodes") {
        ReadOptions opt;
        opt.max_nodes = 10; // the file has 1014 nodes
        auto r = decode_trace(stage, "many.et", opt);
        REQUIRE_FALSE(r.is_ok());
        CHECK_THAT(r.status().message(), Contains("more than 10 nodes"));
    }
}

TEST_CASE("trace writer: encode -> decode round trip", "[trace]") {
    // Every typed attribute the simulator reads survives encode_trace + decode_trace unchanged.
    test::TraceBuilder b;
    b.comp(1, 5);
    b.roofline_comp(2, 1000, 64, {1}).ctrl_deps = {1};
    b.cpu(3, 2, {1});
    trace::Node& c = b.coll(4, CollectiveType::ReduceScatter, 4096, {2, 3});
    c.pg_name = "7";
    c.involved_dim = std::vector<bool>{true, false, true};
    c.comm_priority = 3;
    b.send(5, 3, 1024, 99, {4});
    b.recv(6, 2, 2048, 98);
    b.mem_load(7, 512).tensor_loc = 1;
    b.metadata(8);
    std::string bytes = b.bytes();

    Trace t = decode_ok(bytes, "rt.et");
    const Trace& in = b.trace();
    CHECK(t.metadata.version == "0.0.4");
    REQUIRE(t.nodes.size() == in.nodes.size());
    for (size_t i = 0; i < in.nodes.size(); ++i) {
        const Node& x = in.nodes[i];
        const Node& y = t.nodes[i];
        INFO("node " << x.id);
        CHECK(y.id == x.id);
        CHECK(y.name == x.name);
        CHECK(y.type == x.type);
        CHECK(y.data_deps == x.data_deps);
        CHECK(y.ctrl_deps == x.ctrl_deps);
        CHECK(y.duration_micros == x.duration_micros);
        CHECK(y.is_cpu_op == x.is_cpu_op);
        CHECK(y.num_ops == x.num_ops);
        CHECK(y.tensor_size == x.tensor_size);
        CHECK(y.comm_type == x.comm_type);
        CHECK(y.comm_size == x.comm_size);
        CHECK(y.comm_src == x.comm_src);
        CHECK(y.comm_dst == x.comm_dst);
        CHECK(y.comm_tag == x.comm_tag);
        CHECK(y.comm_priority == x.comm_priority);
        CHECK(y.tensor_loc == x.tensor_loc);
        CHECK(y.involved_dim == x.involved_dim);
        CHECK(y.pg_name == x.pg_name);
    }

    SECTION("a real file re-encoded from its verbatim attributes is a fixed point") {
        // decode(keep_attributes) -> encode gives bytes E; decoding and encoding E again gives E exactly:
        // nothing is lost or reordered after the first pass.
        ReadOptions opt;
        opt.keep_attributes = true;
        Trace once = decode_ok(test::read_data("traces/stage/gpt_dp2tp2pp2_4l/workload.4.et"), "w4", opt);
        std::string e1 = encode_trace(once);
        std::string e2 = encode_trace(decode_ok(e1, "e1", opt));
        CHECK(e1 == e2);
        CHECK(decode_ok(e1, "e1").nodes.size() == once.nodes.size());
    }
}

TEST_CASE("trace reader: streaming visits the same nodes as decoding", "[trace]") {
    // for_each_node hands out one node at a time (the session builds graphs this way): same count and ids.
    std::string bytes = test::read_data("traces/stage/gpt_dp4_8l/workload.1.et");
    Trace whole = decode_ok(bytes, "w1");
    std::vector<uint64_t> ids;
    GlobalMetadata meta;
    Status st = for_each_node(bytes, "w1", {}, meta, [&ids](const Node& n) { ids.push_back(n.id); });
    REQUIRE(st.is_ok());
    REQUIRE(ids.size() == whole.nodes.size());
    CHECK(ids.size() == 1014); // shared/traces/README.md: 1014 nodes per gpt_dp4_8l file
    for (size_t i = 0; i < ids.size(); ++i)
        CHECK(ids[i] == whole.nodes[i].id);
}

TEST_CASE("trace names: node and collective type names round trip", "[trace]") {
    for (int i = 0; i < kNodeTypeCount; ++i) {
        auto t = static_cast<NodeType>(i);
        CHECK(node_type_from_name(node_type_name(t)) == t);
    }
    for (int i = 0; i < kCollectiveTypeCount; ++i) {
        auto t = static_cast<CollectiveType>(i);
        CHECK(collective_type_from_name(collective_type_name(t)) == t);
    }
    CHECK(std::string(node_type_name(NodeType::CommColl)) == "COMM_COLL_NODE");
    CHECK(std::string(collective_type_name(CollectiveType::AllReduce)) == "ALL_REDUCE");
    CHECK_FALSE(node_type_from_name("NOT_A_NODE").has_value());
}

TEST_CASE("trace reader: a file read a node at a time gives what it gives read whole", "[trace]") {
    // NodeReader is for_each_node in pieces (the browser's search decodes a stage graph between frames).
    // The custom-collective ET (35 nodes), plain and gzipped, read one node per step(): the same nodes,
    // encoded back to the same bytes; a truncated copy is refused with the same message either way.
    const std::string plain = test::read_data(
        "traces/astra-sim-custom-collective/custom_ring_allreduce_8npus_1MB/custom_allreduce.0.et");
    for (const std::string& bytes : {plain, gzip(plain)}) {
        ReadOptions opt;
        opt.keep_attributes = true;
        Trace whole = decode_ok(bytes, "f.et", opt);
        Trace cut;
        cut.verbatim_attrs = true;
        NodeReader reader(bytes, "f.et", opt);
        int steps = 1;
        while (reader.step(1, cut.metadata, [&cut](const Node& n) { cut.nodes.push_back(n); }))
            ++steps;
        CHECK(reader.status().is_ok());
        CHECK(steps == 35); // one node a step, the last step ending the file
        CHECK(encode_trace(cut) == encode_trace(whole));
    }
    const std::string truncated = plain.substr(0, plain.size() - 5);
    auto whole = decode_trace(truncated, "t.et");
    REQUIRE_FALSE(whole.is_ok());
    NodeReader reader(truncated, "t.et", {});
    GlobalMetadata meta;
    size_t nodes = 0;
    while (reader.step(1, meta, [&nodes](const Node&) { ++nodes; })) {
    }
    CHECK(nodes == 34);
    CHECK(reader.status().message() == whole.status().message());
}
