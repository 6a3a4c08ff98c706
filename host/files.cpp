#include "host/files.h"

#include "core/session/trace_ranks.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace astrolabe::host {

namespace fs = std::filesystem;

Result<std::string> read_file(const std::string& path, const std::string& what) {
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return Status::error(what + " " + path + ": is a directory; a file was expected");
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::error(what + " " + path + ": cannot open (" + std::strerror(errno) + ")");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) return Status::error(what + " " + path + ": read error");
    return ss.str();
}

Status write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Status::error(path + ": cannot write (" + std::strerror(errno) + ")");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return Status::error(path + ": write failed");
    return Status::ok();
}

namespace {
// A file written piece by piece; the first failed write is remembered and later ones skipped.
class FileSink final : public ByteSink {
public:
    explicit FileSink(std::FILE* f) : f_(f) {}
    void write(std::string_view bytes) override {
        if (ok && std::fwrite(bytes.data(), 1, bytes.size(), f_) != bytes.size()) ok = false;
    }
    bool ok = true;

private:
    std::FILE* f_;
};
} // namespace

Status write_file_streamed(const std::string& path, const std::function<void(ByteSink&)>& produce) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return Status::error(path + ": cannot write (" + std::strerror(errno) + ")");
    FileSink sink(f);
    try {
        produce(sink);
    } catch (...) {
        std::fclose(f);
        throw;
    }
    const bool closed = std::fclose(f) == 0;
    if (!sink.ok || !closed) return Status::error(path + ": write failed");
    return Status::ok();
}

Result<FileTraceSource> FileTraceSource::open(const std::string& workload) {
    FileTraceSource s;
    std::error_code ec;
    if (workload.empty())
        return Status::error("workload: no path given; pass --workload PREFIX (NPU i reads PREFIX.i.et)");
    if (fs::is_directory(workload, ec)) {
        std::vector<std::string> names, paths;
        for (const auto& e : fs::directory_iterator(workload, ec)) {
            if (!e.is_regular_file() || trace_rank_of(e.path().filename().string()) < 0) continue;
            names.push_back(e.path().filename().string());
            paths.push_back(e.path().string());
        }
        if (names.empty())
            return Status::error("workload " + workload + ": the directory holds no <name>.<rank>.et files");
        auto order = order_traces_by_rank(names, "workload " + workload);
        if (!order.is_ok()) return order.status();
        for (size_t i : order.value())
            s.files_.push_back(paths[i]);
        return s;
    }
    if (fs::is_regular_file(workload, ec)) {
        s.files_.push_back(workload);
        return s;
    }
    if (!fs::exists(workload + ".0.et", ec))
        return Status::error("workload " + workload + ": no such file or directory, and " + workload +
                             ".0.et does not exist either (NPU i reads PREFIX.i.et)");
    s.prefix_ = workload;
    return s;
}

std::string FileTraceSource::path_of(uint32_t rank) const {
    return files_.empty() ? prefix_ + "." + std::to_string(rank) + ".et" : files_[rank];
}

Status FileTraceSource::read(uint32_t rank, std::string& bytes, std::string& name) {
    name = path_of(rank);
    Result<std::string> r = read_file(name, "trace");
    if (!r.is_ok()) return r.status();
    bytes = std::move(r.value());
    return Status::ok();
}

Status FileTraceSink::write_rank(uint32_t rank, std::string et_bytes) {
    if (!dir_checked_) {
        dir_checked_ = true;
        std::filesystem::path dir = std::filesystem::path(prefix_).parent_path();
        std::error_code ec;
        if (!dir.empty() && !std::filesystem::exists(dir, ec)) std::filesystem::create_directories(dir, ec);
    }
    ++ranks;
    return write_file(prefix_ + "." + std::to_string(rank) + ".et", et_bytes);
}

Status FileTraceSink::write_comm_groups(std::string json) {
    groups_path = prefix_ + ".json";
    return write_file(groups_path, json + "\n");
}

} // namespace astrolabe::host
