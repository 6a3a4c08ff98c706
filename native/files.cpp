#include "native/files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace astrolabe::cli {

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

// The rank in "<name>.<rank>.et", or -1.
int64_t rank_of(const std::string& file) {
    if (file.size() < 4 || file.compare(file.size() - 3, 3, ".et") != 0) return -1;
    std::string stem = file.substr(0, file.size() - 3);
    size_t dot = stem.rfind('.');
    std::string digits = dot == std::string::npos ? stem : stem.substr(dot + 1);
    if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), ::isdigit))
        return -1;
    return std::stoll(digits);
}

} // namespace

Result<FileTraceSource> FileTraceSource::open(const std::string& workload) {
    FileTraceSource s;
    std::error_code ec;
    if (workload.empty())
        return Status::error("workload: no path given; pass --workload PREFIX (NPU i reads PREFIX.i.et)");
    if (fs::is_directory(workload, ec)) {
        std::vector<std::pair<int64_t, std::string>> found;
        for (const auto& e : fs::directory_iterator(workload, ec)) {
            if (!e.is_regular_file()) continue;
            int64_t r = rank_of(e.path().filename().string());
            if (r >= 0) found.emplace_back(r, e.path().string());
        }
        if (found.empty())
            return Status::error("workload " + workload + ": the directory holds no <name>.<rank>.et files");
        std::sort(found.begin(), found.end());
        for (size_t i = 0; i < found.size(); ++i) {
            if (found[i].first != static_cast<int64_t>(i))
                return Status::error("workload " + workload + ": trace ranks must be 0.." +
                                     std::to_string(found.size() - 1) +
                                     " with none missing or repeated; found " + found[i].second);
            s.files_.push_back(found[i].second);
        }
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

} // namespace astrolabe::cli
