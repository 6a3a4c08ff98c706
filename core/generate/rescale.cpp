#include "core/generate/rescale.h"

#include "core/base/json_writer.h"
#include "core/trace/trace_reader.h"

#include <algorithm>
#include <map>

namespace astrolabe::generate {

namespace {

using Members = std::vector<uint32_t>;

bool is_data_group(const Members& m, uint32_t D) {
    if (m.size() != D || m[0] % D != 0) return false;
    for (uint32_t i = 0; i < D; ++i)
        if (m[i] != m[0] + i) return false;
    return true;
}

bool is_replica_invariant(const Members& m, uint32_t D) {
    for (uint32_t r : m)
        if (r % D != m[0] % D) return false;
    return true;
}

// Why the groups do not fit data-parallel degree D, or "" when they do.
std::string misfit(const RankGroups& g, uint32_t D) {
    for (const auto& [id, m] : g.groups)
        if (!is_data_group(m, D) && !is_replica_invariant(m, D))
            return "group " + std::to_string(id) + " mixes ranks of different data-parallel replicas";
    return std::string();
}

trace::Attribute* find_attr(trace::Node& n, const char* name) {
    for (auto& a : n.attrs)
        if (a.name == name) return &a;
    return nullptr;
}

// Rewrites an integer attribute in whatever integer kind it was written with.
void set_int(trace::Node& n, const char* name, uint64_t v) {
    trace::Attribute* a = find_attr(n, name);
    if (!a) return;
    if (!a->ints.empty()) a->ints[0] = static_cast<int64_t>(v);
    if (!a->uints.empty()) a->uints[0] = v;
}

void set_pg(trace::Node& n, uint32_t id) {
    const std::string s = std::to_string(id);
    n.pg_name = s;
    n.attrs.erase(std::remove_if(n.attrs.begin(), n.attrs.end(),
                                 [](const trace::Attribute& a) { return a.name == "comm_group"; }),
                  n.attrs.end());
    if (trace::Attribute* a = find_attr(n, "pg_name")) {
        a->kind = trace::AttrKind::String;
        a->strings.assign(1, s);
        return;
    }
    trace::Attribute a;
    a.name = "pg_name";
    a.kind = trace::AttrKind::String;
    a.strings.push_back(s);
    n.attrs.push_back(std::move(a));
}

// A structural fingerprint of a trace for the pure data-parallel check: what every node does, in file
// order (not ids: ASTRA-sim's microbenchmarks give rank r's single node id r).
std::vector<uint64_t> fingerprint(const trace::Trace& t) {
    std::vector<uint64_t> f;
    f.reserve(t.nodes.size() * 3);
    for (const auto& n : t.nodes) {
        f.push_back(static_cast<uint64_t>(n.type));
        f.push_back(n.comm_size.value_or(0) ^ (n.comm_type.value_or(0) << 56));
        f.push_back(n.num_ops.value_or(0) + n.duration_micros);
    }
    return f;
}

} // namespace

std::string RescalePlan::describe() const {
    return std::to_string(npus_in) + " NPUs = " + std::to_string(shards) +
           " model shard(s) x data-parallel " + std::to_string(dp_in) + " -> " + std::to_string(npus_out) +
           " NPUs = " + std::to_string(shards) + " x " + std::to_string(dp_out);
}

Result<RescalePlan> rescale(uint32_t npus_in, const RankGroups& groups_in, const ReadTrace& read,
                            uint32_t npus_out, TraceSink& sink) {
    if (npus_in == 0) return Status::error("rescale: the input set has no traces");
    if (npus_out == 0) return Status::error("--npus: 0; a positive NPU count was expected");
    RankGroups groups = groups_in;
    for (auto& g : groups.groups) {
        std::sort(g.second.begin(), g.second.end());
        if (g.second.empty())
            return Status::error("comm groups: group " + std::to_string(g.first) + " is empty");
        if (g.second.back() >= npus_in)
            return Status::error("comm groups: group " + std::to_string(g.first) + " names rank " +
                                 std::to_string(g.second.back()) + " but the set has " +
                                 std::to_string(npus_in) + " traces");
    }
    RescalePlan plan;
    plan.npus_in = npus_in;
    plan.npus_out = npus_out;

    // 0. A generated set numbered tensor-parallel first (rank-order tp-first) has groups of consecutive
    // ranks that are not data groups; its files say so.
    {
        auto first = read(0);
        if (!first.is_ok()) return first.status();
        for (const auto& a : first.value().metadata.attrs)
            if (a.name == "rank_order" && a.strings.size() == 1 && a.strings[0] != "dp-first")
                return Status::error("rescale: the set was generated with rank-order " + a.strings[0] +
                                     "; rescale needs data-parallel ranks fastest (rank = dp + D q): "
                                     "generate it with rank-order dp-first, or generate the new size");
    }

    // 1. The data-parallel degree D.
    uint32_t D = 0;
    std::string why = "no communicator group holds rank 0 with its data-parallel replicas 0..D-1";
    if (groups.groups.empty()) {
        // Pure data parallel: every file does the same thing, over the whole system, without messages.
        auto first = read(0);
        if (!first.is_ok()) return first.status();
        const auto fp = fingerprint(first.value());
        for (const auto& n : first.value().nodes)
            if (n.type == trace::NodeType::CommSend || n.type == trace::NodeType::CommRecv)
                return Status::error(
                    "rescale: rank 0 sends or receives point-to-point messages but there are no "
                    "communicator groups to tell the parallel layout; pass --comm-groups");
        for (uint32_t r = 1; r < npus_in; ++r) {
            auto t = read(r);
            if (!t.is_ok()) return t.status();
            if (fingerprint(t.value()) != fp)
                return Status::error(
                    "rescale: rank " + std::to_string(r) +
                    " runs a different DAG from rank 0 and there are no communicator groups; only "
                    "a pure data-parallel set (identical files) or a DP layout with groups can be "
                    "rescaled");
        }
        D = npus_in;
    } else {
        std::vector<uint32_t> candidates;
        for (const auto& [id, m] : groups.groups)
            if (m.size() > 1 && m[0] == 0 && is_data_group(m, static_cast<uint32_t>(m.size())))
                candidates.push_back(static_cast<uint32_t>(m.size()));
        std::sort(candidates.rbegin(), candidates.rend());
        for (uint32_t c : candidates) {
            if (npus_in % c != 0) continue;
            std::string m = misfit(groups, c);
            if (m.empty()) {
                D = c;
                break;
            }
            why = "with data-parallel degree " + std::to_string(c) + ", " + m;
        }
        if (D == 0) return Status::error("rescale: not a regular data-parallel layout: " + why);
    }
    const uint32_t shards = npus_in / D;
    if (npus_out % shards != 0)
        return Status::error("--npus: " + std::to_string(npus_out) + "; the set has " +
                             std::to_string(shards) + " model shard(s) of data-parallel degree " +
                             std::to_string(D) + ", so a multiple of " + std::to_string(shards) +
                             " was expected");
    const uint32_t D2 = npus_out / shards;
    plan.dp_in = D;
    plan.dp_out = D2;
    plan.shards = shards;

    // 2. New groups: one data group per shard, and each replica-0 group once per new replica.
    std::map<uint32_t, uint32_t> data_id;                     // old data group id -> new id
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> rep_id; // (old id, new replica) -> new id
    std::vector<std::pair<uint32_t, Members>> out_groups;
    uint32_t next = 1;
    for (const auto& [id, m] : groups.groups) {
        if (!is_data_group(m, D) || m.size() == 1) continue;
        Members nm;
        const uint32_t q = m[0] / D;
        for (uint32_t i = 0; i < D2; ++i)
            nm.push_back(q * D2 + i);
        data_id[id] = next;
        out_groups.emplace_back(next++, std::move(nm));
    }
    for (const auto& [id, m] : groups.groups) {
        if (data_id.count(id) || m[0] % D != 0) continue; // other replicas' copies are not needed
        for (uint32_t dp = 0; dp < D2; ++dp) {
            Members nm;
            for (uint32_t r : m)
                nm.push_back(dp + D2 * (r / D));
            rep_id[{id, dp}] = next;
            out_groups.emplace_back(next++, std::move(nm));
        }
    }

    // 3. Every output rank from its shard's replica-0 trace (one decoded trace held at a time).
    trace::Trace rep;
    uint32_t rep_q = UINT32_MAX;
    for (uint32_t r2 = 0; r2 < npus_out; ++r2) {
        const uint32_t q = r2 / D2, dp = r2 % D2;
        if (q != rep_q) {
            auto t = read(q * D);
            if (!t.is_ok()) return t.status();
            rep = std::move(t.value());
            rep_q = q;
        }
        trace::Trace t = rep;
        for (trace::Node& n : t.nodes) {
            const std::string where = rep.source + ": node " + std::to_string(n.id) + ": ";
            if (n.type == trace::NodeType::CommColl) {
                const std::string pg = n.pg_name.value_or("");
                if (pg.empty() || pg == "0") continue; // the whole system stays the whole system
                uint32_t id = 0;
                if (pg.size() > 9 || !std::all_of(pg.begin(), pg.end(), ::isdigit))
                    return Status::error(where + "pg_name '" + pg + "' is not a numeric group id");
                id = static_cast<uint32_t>(std::stoul(pg));
                if (auto it = data_id.find(id); it != data_id.end()) {
                    set_pg(n, it->second);
                    if (n.collective() == trace::CollectiveType::AllGather && n.comm_size) {
                        // The shard each replica contributes shrinks or grows with the replica count.
                        n.comm_size = (*n.comm_size * D + D2 - 1) / D2;
                        set_int(n, "comm_size", *n.comm_size);
                    }
                } else if (auto jt = rep_id.find({id, dp}); jt != rep_id.end()) {
                    set_pg(n, jt->second);
                } else {
                    return Status::error(where + "pg_name '" + pg + "' is not a group of this replica");
                }
            } else if (n.type == trace::NodeType::CommSend || n.type == trace::NodeType::CommRecv) {
                const bool send = n.type == trace::NodeType::CommSend;
                auto& peer = send ? n.comm_dst : n.comm_src;
                if (!peer)
                    return Status::error(where +
                                         (send ? "a send without comm_dst" : "a receive without comm_src"));
                if (*peer >= npus_in || *peer % D != 0)
                    return Status::error(where + "peer " + std::to_string(*peer) +
                                         " is in another data-parallel replica; not a regular layout");
                peer = dp + D2 * (*peer / D);
                set_int(n, send ? "comm_dst" : "comm_src", *peer);
            }
        }
        Status st = sink.write_rank(r2, trace::encode_trace(t));
        if (!st.is_ok()) return st;
    }
    if (!out_groups.empty()) {
        JsonWriter w(0);
        w.begin_object();
        for (const auto& [id, m] : out_groups) {
            w.key(std::to_string(id));
            w.begin_array();
            for (uint32_t r : m)
                w.value(static_cast<uint64_t>(r));
            w.end_array();
        }
        w.end_object();
        Status st = sink.write_comm_groups(w.str());
        if (!st.is_ok()) return st;
    }
    return plan;
}

} // namespace astrolabe::generate
