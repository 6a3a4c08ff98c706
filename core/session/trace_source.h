// Where a run's per-NPU trace bytes come from: files (the CLI's prefix, the browser's bundled samples),
// memory (uploads, embedded scenarios, generated workloads). Sources are read once, rank by rank.
#pragma once

#include "core/base/status.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

class GraphCache;

class TraceSource {
public:
    virtual ~TraceSource() = default;
    // How many traces the source holds, or -1 when it can supply any rank asked for (a path prefix).
    virtual int64_t count() const = 0;
    // The bytes of rank `rank`'s trace and a name for messages (a file name).
    virtual Status read(uint32_t rank, std::string& bytes, std::string& name) = 0;

    // Whether read() may be called from several threads at once (then a full run decodes traces in
    // parallel, RunOptions::runner). Sources that generate or cache as they go keep the default.
    virtual bool concurrent_reads() const { return false; }

    // A generator can say which ranks are alike up to translation without the traces being compared
    // (SimulationInput::translation_proof): whether moving every rank by one along the rank digit
    // (r / stride) % size maps each trace onto its image's, the ranks whose traces hold every distinct DAG,
    // and one rank's trace made alone. Sources that cannot say keep these defaults.
    virtual bool vouches_for_translations() const { return false; }
    virtual bool keeps_traces(uint32_t /*stride*/, uint32_t /*size*/) const { return false; }
    virtual std::vector<uint32_t> distinct_ranks() const { return {}; }
    virtual Status read_alone(uint32_t rank, std::string& bytes, std::string& name) {
        return read(rank, bytes, name);
    }
    // A generator whose traces are retargeted copies of a few model ranks' (graph_cache.h): the model of
    // `rank` (-1: none), the id of `rank`'s group standing where the model's trace names group `id` (-1:
    // none), and where the models' graphs are kept for as long as the source lives (null: not kept).
    virtual int64_t model_rank(uint32_t /*rank*/) const { return -1; }
    virtual int64_t moved_group_id(uint32_t /*id*/, uint32_t /*rank*/) const { return -1; }
    virtual GraphCache* graph_cache() { return nullptr; }
};

// Traces already in memory (the browser, tests, generated workloads).
class MemoryTraceSource final : public TraceSource {
public:
    void add(std::string name, std::string bytes) { traces_.push_back({std::move(name), std::move(bytes)}); }
    int64_t count() const override { return static_cast<int64_t>(traces_.size()); }
    Status read(uint32_t rank, std::string& bytes, std::string& name) override;
    bool concurrent_reads() const override { return true; } // reads only copy

private:
    std::vector<std::pair<std::string, std::string>> traces_;
};

} // namespace astrolabe
