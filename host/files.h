// Platform code both front ends share (the CLI on disk, the browser on Emscripten's virtual file system):
// whole-file reads and writes, and resolving a workload path into trace files. Never part of core/, which
// sees only bytes; the browser reads its bundled samples with this same code, so both order and name the
// traces identically.
#pragma once

#include "core/base/json_writer.h"
#include "core/base/status.h"
#include "core/generate/trace_sink.h"
#include "core/session/session.h"

#include <functional>
#include <string>
#include <vector>

namespace astrolabe::host {

Result<std::string> read_file(const std::string& path, const std::string& what);
Status write_file(const std::string& path, const std::string& bytes);
// Writes what `produce` streams into its sink to `path` as it comes (a report of hundreds of MB never
// exists whole in memory); the same messages as write_file.
Status write_file_streamed(const std::string& path, const std::function<void(ByteSink&)>& produce);

// A workload as ASTRA-sim names it: a prefix P (NPU i reads P.i.et), or a directory of `<name>.<rank>.et`
// files, or one .et file (a single NPU).
class FileTraceSource final : public TraceSource {
public:
    static Result<FileTraceSource> open(const std::string& workload);
    int64_t count() const override { return files_.empty() ? -1 : static_cast<int64_t>(files_.size()); }
    Status read(uint32_t rank, std::string& bytes, std::string& name) override;
    bool concurrent_reads() const override { return true; } // each read opens its own file
    std::string path_of(uint32_t rank) const;

private:
    std::string prefix_;
    std::vector<std::string> files_; // directory or single-file form; empty for a prefix
};

// Writes generated or rescaled traces as `<prefix>.<rank>.et`, each as it arrives, and the communicator
// groups as `<prefix>.json` (STAGE's naming); creates the prefix's folder when missing.
class FileTraceSink final : public generate::TraceSink {
public:
    explicit FileTraceSink(std::string prefix) : prefix_(std::move(prefix)) {}
    Status write_rank(uint32_t rank, std::string et_bytes) override;
    Status write_comm_groups(std::string json) override;
    uint32_t ranks = 0;
    std::string groups_path; // set once the groups are written

private:
    std::string prefix_;
    bool dir_checked_ = false;
};

} // namespace astrolabe::host

// Transitional: code written when these lived in native/ names them cli:: (native/run_command.cpp,
// ui/app_state.cpp). Those run paths move onto the Session (issue 15); then this block goes.
namespace astrolabe::cli {
using host::FileTraceSink;
using host::FileTraceSource;
using host::read_file;
using host::write_file;
using host::write_file_streamed;
} // namespace astrolabe::cli
