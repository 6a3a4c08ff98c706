// nccl-tests' loop through the engine. Index: [SECTION] traces · [SECTION] one row · [SECTION] output
#include "core/session/collective_perf.h"

#include "core/base/json_writer.h"
#include "core/generate/microbench.h"
#include "core/hardware/hardware_mapping.h"
#include "core/session/measured_compare.h"
#include "core/session/measured_fit.h"
#include "core/session/session.h"
#include "core/trace/trace_reader.h"

#include <cmath>
#include <cstdio>

namespace astrolabe {

namespace {

// Iterations of the simulated loop: one, then this many; the difference is the steady-state time.
constexpr uint32_t kIterations = 4;

// [SECTION] traces
// nccl-tests' timed loop on one rank: launch_i (host, CPU slot) -> coll_i; launch_{i+1} follows launch_i
// on the host thread and coll_{i+1} follows coll_i on the GPU stream. With no host launch (launch_us 0)
// the collectives simply run back to back.
trace::Trace bench_trace(trace::CollectiveType type, uint64_t comm_size, uint64_t launch_us,
                         uint32_t iterations, uint32_t rank) {
    trace::Trace t;
    t.source = "collective_perf." + std::to_string(rank) + ".et";
    t.metadata.version = "0.0.4";
    uint64_t id = 0;
    int64_t prev_launch = -1, prev_coll = -1;
    for (uint32_t i = 0; i < iterations; ++i) {
        int64_t launch = -1;
        if (launch_us > 0) {
            trace::Node l;
            l.id = id++;
            l.name = "launch_" + std::to_string(i);
            l.type = trace::NodeType::Comp;
            l.raw_type = static_cast<uint32_t>(l.type);
            l.is_cpu_op = true;
            l.duration_micros = launch_us;
            if (prev_launch >= 0) l.ctrl_deps.push_back(static_cast<uint64_t>(prev_launch));
            launch = prev_launch = static_cast<int64_t>(l.id);
            t.nodes.push_back(std::move(l));
        }
        trace::Node c;
        c.id = id++;
        c.name = std::string(trace::collective_type_name(type)) + "_" + std::to_string(i);
        c.type = trace::NodeType::CommColl;
        c.raw_type = static_cast<uint32_t>(c.type);
        c.comm_type = static_cast<uint64_t>(type);
        c.comm_size = comm_size;
        if (launch >= 0) c.data_deps.push_back(static_cast<uint64_t>(launch));
        if (prev_coll >= 0) c.data_deps.push_back(static_cast<uint64_t>(prev_coll));
        prev_coll = static_cast<int64_t>(c.id);
        t.nodes.push_back(std::move(c));
    }
    return t;
}

Result<TimeNs> simulate(const config::NetworkConfig& net, const config::SystemConfig& sys,
                        trace::CollectiveType type, uint64_t comm_size, uint64_t launch_us,
                        uint32_t iterations) {
    config::Scenario cfg;
    cfg.network = net;
    cfg.system = sys;
    RunOptions options;
    options.keep_names = false;
    MemoryTraceSource traces;
    const uint32_t n = static_cast<uint32_t>(net.npus());
    for (uint32_t r = 0; r < n; ++r)
        traces.add("collective_perf." + std::to_string(r) + ".et",
                   trace::encode_trace(bench_trace(type, comm_size, launch_us, iterations, r)));
    std::vector<std::string> warnings;
    auto sim = build_simulation(std::move(cfg), traces, warnings, options);
    if (!sim) return sim.status();
    sim.value()->run_to_end();
    RunResult res = sim.value()->result();
    if (!res.complete) return Status::error("collective-perf: the simulated loop did not complete");
    return res.total_ns;
}

// ASTRA-sim's examples/network/analytical/HGX-H100-validated.yml and its system JSON, for n NPUs.
void astra_reference(uint32_t n, config::NetworkConfig& net, config::SystemConfig& sys) {
    config::NetworkDim d;
    d.topology = config::Topology::Switch;
    d.npus = n;
    d.bandwidth_gbps = 400.0;
    d.latency_ns = 936.25;
    net.dims = {d};
    sys.scheduling_policy = config::SchedulingPolicy::LIFO;
    sys.endpoint_delay_ns = 10;
    sys.active_chunks_per_dimension = 2;
    sys.preferred_dataset_splits = 4;
    sys.collective_optimization = config::CollectiveOptimization::LocalBWAware;
    sys.local_mem_bw_gbps = 3350;
    const config::AlgorithmChoice ring{config::CollectiveAlgorithm::Ring, -1};
    for (auto& impl : sys.implementation)
        impl = {ring};
}

} // namespace

uint64_t collective_perf_size_count(const CollectivePerfRequest& req) {
    if (!req.sizes.empty()) return req.sizes.size();
    if (req.min_bytes == 0 || req.min_bytes > req.max_bytes) return 0;
    if (req.step_bytes > 0) return (req.max_bytes - req.min_bytes) / req.step_bytes + 1;
    const uint64_t f = req.factor < 2 ? 2 : req.factor;
    uint64_t n = 0;
    for (uint64_t s = req.min_bytes; s <= req.max_bytes; s *= f) {
        ++n;
        if (s > UINT64_MAX / f) break;
    }
    return n;
}

namespace {

// nccl-tests' cut (setupArgs and each test's getCollByteCount): count = size / type size; all-gather,
// reduce-scatter and all-to-all move count / ranks elements per rank, rounded down to a multiple of 16 bytes
// (`& -(16 / eltSize)`), so their size is a whole number of 16-byte parts per rank, the same for every type
// (a table run with doubles is matched by a run with floats). All-reduce: whole elements. Each size is cut
// down to a multiple of this unit.
uint64_t cut_unit(const CollectivePerfRequest& req) {
    const uint64_t type_bytes = hardware::nccl_type_bytes(req.type);
    if (req.op == hardware::CollOp::AllReduce) return type_bytes;
    return std::max<uint64_t>(16, type_bytes) * std::max<uint32_t>(1, req.hardware.ranks());
}

} // namespace

std::vector<uint64_t> collective_perf_sizes(const CollectivePerfRequest& req) {
    if (!req.sizes.empty()) return req.sizes;
    std::vector<uint64_t> out;
    const uint64_t count = collective_perf_size_count(req);
    const uint64_t f = req.factor < 2 ? 2 : req.factor;
    const uint64_t unit = req.cut_sizes ? cut_unit(req) : 1;
    uint64_t s = req.min_bytes;
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t cut = s / unit * unit;
        if (cut > 0) out.push_back(cut);
        s = req.step_bytes > 0 ? s + req.step_bytes : s * f;
    }
    return out;
}

Status collective_perf_size_problems(const CollectivePerfRequest& req, const std::string& min_key,
                                     const std::string& max_key) {
    if (!req.sizes.empty() || !req.cut_sizes || collective_perf_size_count(req) == 0 ||
        !collective_perf_sizes(req).empty())
        return Status::ok();
    const bool per_rank = req.op != hardware::CollOp::AllReduce;
    return Status::error(min_key + ": " + std::to_string(req.min_bytes) + " and " + max_key + ": " +
                         std::to_string(req.max_bytes) + " leave nothing to run; " +
                         hardware::coll_op_name(req.op) + " on " + std::to_string(req.hardware.ranks()) +
                         " GPUs moves at least " + std::to_string(cut_unit(req)) + " bytes" +
                         (per_rank ? " (16 per rank: nccl-tests runs smaller sizes as rows of size 0)"
                                   : std::string(" (one ") + hardware::nccl_type_name(req.type) + ")"));
}

config::HardwareConfig collective_perf_system(const CollectivePerfRequest& req) {
    config::HardwareConfig hw = req.hardware;
    if (hardware::coll_op_reduces(req.op) && !hardware::nvls_reduces(req.type, req.red_op)) hw.nvls = false;
    return hw;
}

Status collective_perf_algo_problems(const CollectivePerfRequest& req, const std::string& key) {
    Status problems;
    const bool own = req.algo != config::NcclAlgo::Auto;
    const config::NcclAlgo forced = own ? req.algo : req.hardware.algo;
    const bool nvls_forced = forced == config::NcclAlgo::Nvls || forced == config::NcclAlgo::NvlsTree;
    if (nvls_forced && req.hardware.nvls && !collective_perf_system(req).nvls)
        problems.add((own ? key : std::string("nccl_algo")) + ": " + config::nccl_algo_name(forced) +
                     " cannot " + hardware::nccl_red_op_name(req.red_op) + " " +
                     hardware::nccl_type_name(req.type) + " (" + hardware::kNvlsReductionsText +
                     "); use another algorithm, type (-d) or reduction (-o)");
    if (!own) return problems; // the description's own nccl_algo was checked when it was read
    if (nvls_forced && !req.hardware.nvls)
        problems.add(key + ": " + config::nccl_algo_name(forced) +
                     " needs NVLink SHARP, and the hardware says nvls: false");
    if (forced == config::NcclAlgo::CollNet && !req.hardware.collnet)
        problems.add(key + ": collnet needs collnet: true (InfiniBand SHARP) in the hardware file");
    return problems;
}

// [SECTION] one row
Result<CollectivePerfRow> run_collective_perf_row(const CollectivePerfRequest& req, uint64_t bytes) {
    const config::HardwareConfig hw = collective_perf_system(req);
    const uint32_t n = hw.ranks();
    if (n < 2)
        return Status::error("collective-perf: the system has one GPU; a collective needs two or more");
    CollectivePerfRow row;
    row.size_bytes = bytes;
    row.count = bytes / hardware::nccl_type_bytes(req.type) / (req.op == hardware::CollOp::AllReduce ? 1 : n);
    TimeNs per_iteration = 0;
    if (req.astra_reference) {
        config::NetworkConfig net;
        config::SystemConfig sys;
        astra_reference(n, net, sys);
        uint64_t comm = req.op == hardware::CollOp::AllGather ? std::max<uint64_t>(1, bytes / n) : bytes;
        auto t = simulate(net, sys, hardware::trace_collective(req.op), comm, 0, 1);
        if (!t) return t.status();
        per_iteration = t.value();
    } else {
        // The engine's all-to-all sends each peer a whole number of bytes (size / ranks), so the model's
        // rate is taken at that size too; one without a byte per peer (a row of count 0, asked for without
        // -d) still exchanges with every peer and is timed as one byte each, not as empty messages.
        const uint64_t timed =
            req.op == hardware::CollOp::AllToAll ? std::max<uint64_t>(1, bytes / n) * n : bytes;
        row.choice = hardware::choose(hw, req.op, timed, req.algo);
        // ring/Simple runs on every system of two or more GPUs, so the tuner always has a choice; should a
        // change break that, say so here rather than let a zero rate reach the engine.
        if (row.choice.predicted_us < 0)
            return Status::error("collective-perf: no NCCL algorithm and protocol runs " +
                                 std::string(hardware::coll_op_name(req.op)) + " of " +
                                 std::to_string(timed) +
                                 " bytes on this system (a bug in the NCCL-like model)");
        hardware::MappedCollective m = hardware::map_collective(hw, req.op, timed, row.choice);
        uint64_t launch_us =
            static_cast<uint64_t>(std::llround(hardware::host_launch_us(hw, row.choice.channels, req.op)));
        auto one = simulate(m.network, m.system, m.type, m.comm_size, launch_us, 1);
        if (!one) return one.status();
        auto many = simulate(m.network, m.system, m.type, m.comm_size, launch_us, kIterations);
        if (!many) return many.status();
        per_iteration = (many.value() - one.value()) / (kIterations - 1);
    }
    row.time_us = double(per_iteration) / 1e3;
    if (row.time_us > 0) {
        row.algbw_gbs = double(bytes) / (row.time_us * 1e3);
        row.busbw_gbs = row.algbw_gbs * hardware::busbw_factor(req.op, n);
    }
    return row;
}

Result<std::vector<CollectivePerfRow>> run_collective_perf(const CollectivePerfRequest& req) {
    std::vector<CollectivePerfRow> rows;
    for (uint64_t s : collective_perf_sizes(req)) {
        auto r = run_collective_perf_row(req, s);
        if (!r) return r.status();
        rows.push_back(r.value());
    }
    return rows;
}

// [SECTION] output
namespace {

// The closing lines of a table set beside a measurement: each size range's error in both conventions.
std::string measured_summary(const MeasuredComparison& m) {
    std::string out;
    char line[256];
    for (auto [e, range] : {std::pair{&m.large, ">= 1 MiB"}, {&m.small, "<  1 MiB"}}) {
        if (e->rows == 0) {
            std::snprintf(line, sizeof line, "# vs measured, %s: no rows\n", range);
        } else {
            std::snprintf(line, sizeof line,
                          "# vs measured, %s: geomean |error| %.1f %% (stricter %.1f %%) over %zu rows; "
                          "issue 20's target %s\n",
                          range, 100 * e->geomean, 100 * e->strict, e->rows,
                          e == &m.large ? "<= 5 %" : "<= 15 %");
        }
        out += line;
    }
    return out;
}

// The description as the model read it, defaults included (the hosts, EFA's transport, the tuner, the
// buffer, the line-rate fraction): what a description that leaves them out was taken to mean.
std::string described_line(const config::HardwareConfig& hw) {
    char line[320];
    const double fraction =
        hw.net_efficiency > 0 ? hw.net_efficiency : hardware::fabric_efficiency(hw.fabric);
    std::snprintf(line, sizeof line, "# as read: %u NICs x %g Gb/s, %s, nvls %s, %s hosts, ",
                  hw.nics_per_node, hw.nic_gbps, config::process_layout_name(hw.processes),
                  hw.nvls ? "on" : "off", config::cpu_vendor_name(hw.cpu));
    std::string out = line;
    if (hw.fabric == config::Fabric::Efa)
        out += std::string("EFA ") + config::efa_transport_name(hw.efa_transport) + ", ";
    out += std::string("tuner ") + config::nccl_tuner_name(hw.tuner);
    if (hw.algo != config::NcclAlgo::Auto)
        out += std::string(", nccl_algo ") + config::nccl_algo_name(hw.algo);
    if (hw.proto != config::NcclProto::Auto)
        out += std::string(", nccl_proto ") + config::nccl_proto_name(hw.proto);
    const uint32_t buff = config::nccl_buffsize(hw);
    const bool mib = buff % (1u << 20) == 0;
    std::snprintf(line, sizeof line, ", NCCL_BUFFSIZE %u %s, net_efficiency %.3f%s\n",
                  mib ? buff >> 20 : buff >> 10, mib ? "MiB" : "KiB", fraction,
                  hw.net_efficiency > 0 ? "" : " (the fabric's)");
    return out + line;
}
} // namespace

std::string collective_perf_table(const CollectivePerfRequest& req,
                                  const std::vector<CollectivePerfRow>& rows,
                                  const MeasuredComparison* measured) {
    const bool reduce = hardware::coll_op_reduces(req.op);
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "# %s on %u x %u %s (%s), %s\n", hardware::coll_op_name(req.op),
                  req.hardware.nodes, req.hardware.gpus_per_node, config::gpu_model_name(req.hardware.gpu),
                  config::fabric_name(req.hardware.fabric),
                  req.astra_reference ? "ASTRA-sim HGX-H100-validated reference" : "NCCL-like model");
    out += line;
    if (!req.astra_reference) out += described_line(req.hardware);
    out += "#\n#                                                       out-of-place\n";
    out +=
        measured
            ? "#       size         count      type   redop    root     time   algbw   busbw  measured   "
              "error  algo/proto\n"
            : "#       size         count      type   redop    root     time   algbw   busbw  algo/proto\n";
    out += measured
               ? "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)      (us)\n"
               : "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)\n";
    bool any_map = false;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        std::string ap = req.astra_reference ? "ring(astra)"
                                             : std::string(config::nccl_algo_name(r.choice.algo)) + "/" +
                                                   config::nccl_proto_name(r.choice.proto);
        if (!req.astra_reference && r.choice.by_aws_map) ap += " *", any_map = true;
        std::snprintf(line, sizeof line, "%12llu  %12llu  %8s  %6s  %6d  %7.2f  %6.2f  %6.2f  ",
                      static_cast<unsigned long long>(r.size_bytes), static_cast<unsigned long long>(r.count),
                      hardware::nccl_type_name(req.type),
                      reduce ? hardware::nccl_red_op_name(req.red_op) : "none", -1, r.time_us, r.algbw_gbs,
                      r.busbw_gbs);
        out += line;
        if (measured && i < measured->measured_us.size()) {
            const double m = measured->measured_us[i];
            std::snprintf(line, sizeof line, "%8.2f  %+5.1f%%  ", m, m > 0 ? 100 * (r.time_us - m) / m : 0.0);
            out += line;
        }
        out += ap + "\n";
    }
    if (any_map) out += "# * algo/proto picked by aws-ofi-nccl's tuner map (p5/p5e beyond two nodes)\n";
    // nccl-tests' closing line: the mean bus bandwidth over the rows (its in-place rows are the same here).
    double sum = 0;
    for (const auto& r : rows)
        sum += r.busbw_gbs;
    std::snprintf(line, sizeof line, "# Avg bus bandwidth    : %g\n#\n",
                  rows.empty() ? 0.0 : sum / double(rows.size()));
    out += line;
    if (measured) out += measured_summary(*measured);
    return out;
}

std::string collective_perf_json(const CollectivePerfRequest& req, const std::vector<CollectivePerfRow>& rows,
                                 const MeasuredComparison* measured, const NetEfficiencyFit* fit) {
    JsonWriter w;
    w.begin_object();
    w.field("op", hardware::coll_op_name(req.op));
    w.field("model", req.astra_reference ? "astra-sim-hgx-h100-validated" : "nccl");
    w.field("type", hardware::nccl_type_name(req.type));
    w.field("redop", hardware::coll_op_reduces(req.op) ? hardware::nccl_red_op_name(req.red_op) : "none");
    size_t i = 0;
    w.object_array("rows", rows, [&](const CollectivePerfRow& r) {
        w.field("size_bytes", r.size_bytes);
        w.field("time_us", r.time_us);
        w.field("algbw_gbs", r.algbw_gbs);
        w.field("busbw_gbs", r.busbw_gbs);
        if (!req.astra_reference) {
            w.field("algo", config::nccl_algo_name(r.choice.algo));
            w.field("proto", config::nccl_proto_name(r.choice.proto));
            w.field("tuner", r.choice.by_aws_map ? "aws-ofi-nccl" : "nccl");
        }
        if (measured && i < measured->measured_us.size()) {
            const double m = measured->measured_us[i];
            w.field("measured_us", m);
            if (m > 0) w.field("error", (r.time_us - m) / m);
        }
        ++i;
    });
    if (measured) {
        w.key("measured").begin_object();
        measured_errors_json(w, *measured);
        w.field("large_from_bytes", kLargeRowBytes);
        w.end_object();
    }
    if (fit) fit_json(w, *fit);
    w.end_object();
    return w.str() + "\n";
}

} // namespace astrolabe

namespace astrolabe {

bool parse_nccl_size(const std::string& text, uint64_t& bytes) {
    if (text.empty()) return false;
    char last = text.back();
    uint64_t mult = last == 'K' || last == 'k'   ? 1ull << 10
                    : last == 'M' || last == 'm' ? 1ull << 20
                    : last == 'G' || last == 'g' ? 1ull << 30
                                                 : 0;
    if (mult == 0) return generate::parse_size(text, bytes) && bytes > 0;
    uint64_t v = 0;
    if (!generate::parse_size(text.substr(0, text.size() - 1), v) || v == 0 || v > UINT64_MAX / mult)
        return false;
    bytes = v * mult;
    return true;
}

std::string nccl_size_text(uint64_t bytes) {
    for (auto [shift, suffix] : {std::pair{30, "G"}, {20, "M"}, {10, "K"}})
        if (bytes > 0 && bytes % (1ull << shift) == 0) return std::to_string(bytes >> shift) + suffix;
    return std::to_string(bytes);
}

} // namespace astrolabe
