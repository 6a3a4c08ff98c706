#include "core/report/report.h"

#include "core/base/json_writer.h"
#include "core/base/time_format.h"
#include "core/report/warnings.h"

#include <algorithm>
#include <cstdio>

namespace astrolabe {

namespace {

std::string group_name(uint32_t id) {
    return id == 0 ? std::string("all") : std::to_string(id);
}

// MACs done over MACs the array could have done in the cycles it was busy.
double systolic_utilization(const NpuStats& s, uint64_t pes) {
    if (s.systolic_cycles == 0 || pes == 0) return 0.0;
    return 100.0 * s.systolic_macs / (static_cast<double>(s.systolic_cycles) * static_cast<double>(pes));
}

} // namespace

namespace {

// `k: [{...}, ...]` with one object per index 0..n-1, its fields written by fields(writer, i). With more
// than one worker, windows of blocks are formatted at once into fragments (JsonWriter::fragment) and
// appended in index order: the same bytes as one thread writing them, with two windows' text in memory.
// The previous window is appended (and so written to a streamed report's file) as one more task of the
// call that formats the next, so the writing overlaps the formatting; only that task touches `w`.
template <typename Fields>
void indexed_object_array(JsonWriter& w, std::string_view k, size_t n, TaskRunner* runner, Fields fields) {
    auto one = [&fields](JsonWriter& out, size_t i) {
        out.begin_object();
        fields(out, i);
        out.end_object();
    };
    constexpr size_t kBlock = 4096;
    const unsigned workers = workers_of(runner);
    w.key(k).begin_array();
    if (workers <= 1 || n <= kBlock) {
        for (size_t i = 0; i < n; ++i)
            one(w, i);
        return void(w.end_array());
    }
    const size_t window = kBlock * workers * 2;
    std::vector<JsonWriter> parts, pending;
    auto append = [&w](std::vector<JsonWriter>& fragments) {
        for (auto& part : fragments)
            w.append_fragment(part);
        fragments.clear();
    };
    for (size_t start = 0; start < n; start += window) {
        const size_t end = std::min(n, start + window);
        const size_t blocks = (end - start + kBlock - 1) / kBlock;
        // Made before the earlier windows are appended; only the array's first element has no comma.
        for (size_t b = 0; b < blocks; ++b)
            parts.push_back(w.fragment(start == 0 && b == 0));
        runner->run(blocks + 1, [&](size_t b) {
            if (b == blocks) return append(pending);
            const size_t from = start + b * kBlock, to = std::min(end, from + kBlock);
            for (size_t i = from; i < to; ++i)
                one(parts[b], i);
        });
        std::swap(parts, pending);
    }
    append(pending);
    w.end_array();
}

void write_report(JsonWriter& w, const RunResult& r, const ReportContext& ctx, TaskRunner* runner) {
    w.begin_object();
    w.field("schema", "astrolabe.report/1");
    w.field("workload", ctx.workload);
    w.field("network_model", ctx.network_model);
    w.field("compute_model", ctx.compute_model);
    w.field("complete", r.complete);
    w.field("partial", ctx.partial);
    if (ctx.partial) w.field("partial_reason", ctx.partial_reason);
    w.field("total_ns", r.total_ns);
    const uint64_t pes = r.stats.systolic_pes;
    indexed_object_array(w, "npus", r.stats.npus.size(), runner, [&r, pes](JsonWriter& w, size_t i) {
        const NpuStats& s = r.stats.npus[i];
        w.field("id", static_cast<uint64_t>(i));
        w.field("finished", s.finished);
        w.field("finish_ns", s.finish_ns);
        w.field("compute_ns", s.compute_ns);
        w.field("compute_bound_ns", s.compute_bound_ns);
        w.field("memory_bound_ns", s.memory_bound_ns);
        w.field("cpu_ns", s.cpu_ns);
        w.field("memory_ns", s.memory_ns);
        w.field("comm_ns", s.comm_ns);
        w.field("exposed_comm_ns", s.exposed_comm_ns());
        w.field("idle_ns", s.idle_ns());
        w.field("nodes", s.nodes);
        w.field("nodes_done", s.nodes_done);
        if (pes > 0) {
            w.key("systolic").begin_object();
            w.field("nodes", s.systolic_nodes);
            w.field("roofline_fallback_nodes", s.roofline_fallback_nodes);
            w.field("replayed_nodes", s.replayed_nodes);
            w.field("ns", s.systolic_ns);
            w.field("cycles", s.systolic_cycles);
            w.field("utilization_pct", systolic_utilization(s, pes));
            w.field("mapping_efficiency_pct", s.systolic_cycles ? 100.0 * s.systolic_mapped_cycles /
                                                                      static_cast<double>(s.systolic_cycles)
                                                                : 0.0);
            w.end_object();
        }
    });
    indexed_object_array(w, "collectives", r.stats.collectives.size(), runner, [&r](JsonWriter& w, size_t i) {
        const CollectiveRecord& c = r.stats.collectives[i];
        w.field("type", trace::collective_type_name(c.type));
        w.field("bytes", c.bytes);
        w.field("group", group_name(c.group_id));
        w.field("index", static_cast<uint64_t>(c.ordinal));
        w.field("npus", static_cast<uint64_t>(c.npus));
        w.field("start_ns", c.start_ns);
        w.field("end_ns", c.end_ns);
    });
    indexed_object_array(w, "links", r.links.size(), runner, [&r](JsonWriter& w, size_t i) {
        const LinkStats& l = r.links[i];
        w.field("src", uint64_t(l.src)).field("dst", uint64_t(l.dst));
        w.field("src_name", l.src_name).field("dst_name", l.dst_name);
        w.field("dim", uint64_t(l.dim));
        w.field("bytes", l.bytes);
        w.field("busy_ns", l.busy_ns);
        w.field("utilization", r.total_ns > 0 ? static_cast<double>(l.busy_ns) / double(r.total_ns) : 0.0);
        w.field("peak_queue", l.peak_queue);
    });
    w.key("network").begin_object();
    w.field("messages", r.messages);
    w.field("bytes", r.message_bytes);
    w.end_object();
    w.object_array("notes", r.stats.notes, [&](const auto& item) {
        const auto& [msg, count] = item;
        w.field("message", msg);
        w.field("count", count);
    });
    w.object_array("stuck", r.stuck, [&](const auto& s) {
        w.field("npu", static_cast<uint64_t>(s.npu));
        w.field("node", s.node_id);
        w.field("what", s.what);
    });
    w.object_array("unreceived_messages", r.unreceived, [&](const auto& m) {
        w.field("src", uint64_t(m.key.src)).field("dst", uint64_t(m.key.dst));
        w.field("tag", m.key.tag).field("bytes", m.key.bytes);
    });
    w.object_array("warnings", collect_warnings(ctx.load_warnings, r), [&](const auto& warning) {
        w.field("message", warning.message);
        w.field("count", warning.count);
    });
    w.key("engine").begin_object();
    w.field("events", r.events);
    w.field("peak_queue", r.peak_queue);
    w.field("simulated_npus", static_cast<uint64_t>(r.simulated_npus));
    w.field("symmetry", r.symmetry);
    w.field("fast_ring", r.fast_ring);
    w.field("wall_s", ctx.wall_s);
    w.field("events_per_s", ctx.wall_s > 0 ? static_cast<double>(r.events) / ctx.wall_s : 0.0);
    w.end_object();
    w.end_object();
    w.raw("\n");
}

} // namespace

std::string report_json(const RunResult& r, const ReportContext& ctx, TaskRunner* runner) {
    JsonWriter w;
    write_report(w, r, ctx, runner);
    return w.take();
}

void write_report_json(ByteSink& sink, const RunResult& r, const ReportContext& ctx, TaskRunner* runner) {
    JsonWriter w(2, &sink);
    write_report(w, r, ctx, runner);
    w.flush();
}

std::string report_summary(const RunResult& r, const ReportContext& ctx) {
    std::string out;
    char buf[1024];
    auto line = [&](const char* fmt, auto... args) {
        std::snprintf(buf, sizeof buf, fmt, args...);
        out += buf;
        out += '\n';
    };
    using ull = unsigned long long;
    size_t n = r.stats.npus.size();
    line("Astrolabe: %zu NPUs, %s network, %s compute, workload %s", n, ctx.network_model.c_str(),
         ctx.compute_model.c_str(), ctx.workload.c_str());
    if (ctx.partial) line("PARTIAL RESULT: %s", ctx.partial_reason.c_str());
    if (!r.complete) line("%s", "INCOMPLETE: some NPUs did not finish (stuck nodes below)");
    // Human units first, the exact ns after the total (the report file keeps every time in ns).
    line("total time: %s", format_duration_exact(ull(r.total_ns)).c_str());
    std::vector<TimeNs> fin;
    double compute = 0, exposed = 0;
    for (const auto& s : r.stats.npus) {
        fin.push_back(s.finish_ns);
        compute += static_cast<double>(s.compute_ns);
        exposed += static_cast<double>(s.exposed_comm_ns());
    }
    std::sort(fin.begin(), fin.end());
    if (!fin.empty()) {
        line("per-NPU finish: min %s, median %s, max %s", format_duration(double(fin.front())).c_str(),
             format_duration(double(fin[(fin.size() - 1) / 2])).c_str(),
             format_duration(double(fin.back())).c_str());
        line("per-NPU mean: compute %s, exposed communication %s",
             format_duration(compute / double(n)).c_str(), format_duration(exposed / double(n)).c_str());
    }
    if (r.stats.systolic_pes > 0) {
        uint64_t gemms = 0, fallback = 0, replayed = 0, cycles = 0;
        double macs = 0;
        for (const auto& s : r.stats.npus) {
            gemms += s.systolic_nodes, fallback += s.roofline_fallback_nodes, replayed += s.replayed_nodes;
            cycles += s.systolic_cycles, macs += s.systolic_macs;
        }
        double util = cycles ? 100.0 * macs / (double(cycles) * double(r.stats.systolic_pes)) : 0.0;
        line("systolic array: %llu GEMM nodes (%.1f %% utilization), %llu fell back to the roofline, %llu "
             "replayed",
             ull(gemms), util, ull(fallback), ull(replayed));
    }
    line("collectives: %zu, network messages: %llu (%llu bytes), events: %llu, wall: %.3f s",
         r.stats.collectives.size(), ull(r.messages), ull(r.message_bytes), ull(r.events), ctx.wall_s);
    if (r.simulated_npus > 0 && r.simulated_npus < r.stats.npus.size())
        line("symmetry: simulated %u of %zu NPUs, one per class (%s)", r.simulated_npus, r.stats.npus.size(),
             r.symmetry.c_str());
    if (!r.links.empty()) {
        // The busiest link (first in report order on a tie): where to look for the bottleneck.
        const LinkStats* hot = &r.links.front();
        for (const auto& l : r.links)
            if (l.busy_ns > hot->busy_ns) hot = &l;
        line("links used: %zu; busiest %s -> %s (dimension %u): busy %.1f%% of the run, %llu bytes, peak "
             "queue "
             "%llu",
             r.links.size(), hot->src_name.c_str(), hot->dst_name.c_str(), hot->dim,
             r.total_ns ? 100.0 * double(hot->busy_ns) / double(r.total_ns) : 0.0, ull(hot->bytes),
             ull(hot->peak_queue));
    }
    for (const auto& [msg, count] : r.stats.notes)
        line("note (%llux): %s", ull(count), msg.c_str());
    size_t shown = 0;
    for (const auto& s : r.stuck) {
        if (++shown > 20) {
            line("... %zu more stuck nodes in the report", r.stuck.size() - 20);
            break;
        }
        line("stuck: NPU %u node %llu: %s", s.npu, ull(s.node_id), s.what.c_str());
    }
    return out;
}

std::string run_warnings_text(const RunResult& r) {
    if (r.unreceived.empty()) return "";
    const auto& k = r.unreceived.front().key;
    char buf[320];
    std::snprintf(
        buf, sizeof buf,
        "warning: %zu message(s) were sent but never received, e.g. NPU %u -> NPU %u, tag %llu, %llu "
        "bytes (a receive with that source, tag and size is missing)\n",
        r.unreceived.size(), k.src, k.dst, static_cast<unsigned long long>(k.tag),
        static_cast<unsigned long long>(k.bytes));
    return buf;
}

std::string timeline_json(const Simulation& sim, const RunResult& r) {
    return timeline_json(sim, r, TimelineFilter{});
}

bool TimelineFilter::keeps(const TimelineRecord& rec) const {
    return rec.npu >= first_npu && rec.npu <= last_npu && rec.end_ns >= from_ns && rec.start_ns <= to_ns;
}

std::string timeline_json(const Simulation& sim, const RunResult& r, const TimelineFilter& filter) {
    static const char* kTracks[] = {"CPU", "GPU compute", "GPU communication", "receives"};
    JsonWriter w(0);
    w.begin_object();
    w.field("displayTimeUnit", "ns");
    w.key("traceEvents").begin_array();
    const size_t last = std::min<size_t>(sim.npus(), size_t(filter.last_npu) + 1);
    for (size_t npu = filter.first_npu; npu < last; ++npu) {
        w.begin_object();
        w.field("ph", "M").field("name", "process_name").field("pid", uint64_t(npu));
        w.key("args").begin_object().field("name", "NPU " + std::to_string(npu)).end_object();
        w.end_object();
        for (int t = 0; t < 4; ++t) {
            w.begin_object();
            w.field("ph", "M").field("name", "thread_name").field("pid", uint64_t(npu)).field("tid", t);
            w.key("args").begin_object().field("name", kTracks[t]).end_object();
            w.end_object();
        }
    }
    for (const auto& rec : r.stats.timeline) {
        if (!filter.keeps(rec)) continue;
        const TimelineNode n = sim.timeline_node(rec);
        using Kind = TimelineNode::Kind;
        const int track = n.cpu ? 0 : n.kind == Kind::Compute ? 1 : n.kind == Kind::Recv ? 3 : 2;
        const std::string name =
            n.name.empty() ? std::string(n.kind_name) + " " + std::to_string(n.id) : n.name;
        w.begin_object();
        w.field("ph", "X").field("name", name).field("cat", n.kind_name);
        w.field("pid", uint64_t(rec.npu)).field("tid", track);
        w.field("ts", static_cast<double>(rec.start_ns) / 1000.0);
        w.field("dur", static_cast<double>(rec.end_ns - rec.start_ns) / 1000.0);
        w.key("args").begin_object().field("node", n.id);
        if (n.collective) w.field("collective", n.collective);
        if (n.bytes) w.field("bytes", n.bytes);
        w.end_object();
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.raw("\n");
    return w.take();
}

} // namespace astrolabe
