// Reading nccl-tests' printed tables (nccl_tests_output.h).
#include "core/hardware/nccl_tests_output.h"

#include "core/hardware/nccl_types.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

namespace astrolabe::hardware {

namespace {

// nccl-tests' columns: runs of non-blanks.
std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string t;
    while (in >> t)
        out.push_back(t);
    return out;
}

// A CSV line's fields, as they are (a Windows line end dropped).
std::vector<std::string> csv_fields(const std::string& s) {
    std::vector<std::string> out(1);
    for (char c : s) {
        if (c == ',')
            out.emplace_back();
        else if (c != '\r')
            out.back() += c;
    }
    return out;
}

bool whole(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}

bool number(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && out >= 0 && out < 1e15;
}

bool known_redop(const std::string& s) {
    if (s == "none") return true;
    NcclRedOp op;
    return parse_nccl_red_op(s, op);
}

// At most kShownProblems of a text's problems, then how many more: a file that is something else entirely
// (a trace, a binary) would otherwise give one message per line.
constexpr size_t kShownProblems = 20;
Status capped(const Status& all, const std::string& source) {
    if (all.problems().size() <= kShownProblems) return all;
    Status out;
    for (size_t i = 0; i < kShownProblems; ++i)
        out.add(all.problems()[i]);
    out.add(source + ": " + std::to_string(all.problems().size() - kShownProblems) +
            " more problems like these; is it nccl-tests' output?");
    return out;
}

// The CSV form: named columns, the out-of-place time, or only the bandwidths (a few published tables print
// no time; nccl-tests' algbw is size / time, so the time follows from it).
Result<MeasuredTable> parse_csv(const std::string& text, const std::string& source) {
    MeasuredTable t;
    Status problems;
    std::istringstream in(text);
    std::string line;
    std::getline(in, line);
    const auto header = csv_fields(line);
    auto column = [&](const char* name) {
        auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : int(it - header.begin());
    };
    const int c_size = column("size_bytes"), c_count = column("count"), c_type = column("type"),
              c_redop = column("redop"), c_time = column("time_us"), c_alg = column("algbw_gbs"),
              c_bus = column("busbw_gbs");
    for (auto [c, name] : {std::pair{c_count, "count"},
                           {c_type, "type"},
                           {c_redop, "redop"},
                           {c_time, "time_us"},
                           {c_alg, "algbw_gbs"},
                           {c_bus, "busbw_gbs"}})
        if (c < 0)
            problems.add(source + ": line 1: no '" + name +
                         "' column; size_bytes,count,type,redop,"
                         "time_us,algbw_gbs,busbw_gbs was expected");
    if (!problems.is_ok()) return problems;
    uint32_t n = 1;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty() || line == "\r") continue;
        const auto cols = csv_fields(line);
        const std::string where = source + ": line " + std::to_string(n) + ": ";
        const int last = std::max({c_size, c_count, c_type, c_redop, c_time, c_alg, c_bus});
        if (int(cols.size()) <= last) {
            problems.add(where + std::to_string(cols.size()) + " columns; " + std::to_string(header.size()) +
                         " (as the header) were expected");
            continue;
        }
        MeasuredRow r;
        r.line = n;
        r.type = cols[c_type];
        r.redop = cols[c_redop];
        // Some published tables print no count (0 here: nothing reads it back).
        const bool ok = whole(cols[c_size], r.size_bytes) &&
                        (cols[c_count].empty() || whole(cols[c_count], r.count)) &&
                        number(cols[c_alg], r.algbw_gbs) && number(cols[c_bus], r.busbw_gbs) &&
                        (cols[c_time].empty() || number(cols[c_time], r.time_us));
        if (!ok) {
            problems.add(where + "'" + line +
                         "'; a whole size (and count), and numbers for the time and "
                         "bandwidths were expected");
            continue;
        }
        if (cols[c_time].empty()) {
            if (r.algbw_gbs <= 0) {
                problems.add(where + "no time and no algbw to take it from");
                continue;
            }
            r.time_us = double(r.size_bytes) / (r.algbw_gbs * 1e3);
        }
        if (r.size_bytes > 0) t.rows.push_back(r);
    }
    if (!problems.is_ok()) return capped(problems, source);
    return t;
}

} // namespace

Result<MeasuredTable> parse_nccl_tests_output(const std::string& text, const std::string& source) {
    Result<MeasuredTable> table = MeasuredTable{};
    if (text.rfind("size_bytes,", 0) == 0) {
        table = parse_csv(text, source);
    } else {
        MeasuredTable t;
        Status problems;
        std::set<uint64_t> ranks;
        std::istringstream in(text);
        std::string line;
        uint32_t n = 0;
        while (std::getline(in, line)) {
            ++n;
            // Open MPI's --tag-output puts "[1,0]<stdout>:" before every line.
            if (auto tag = line.find("<stdout>:"); tag != std::string::npos) line = line.substr(tag + 9);
            const auto tok = words(line);
            if (tok.empty()) continue;
            if (tok[0] == "#") {
                uint64_t v = 0;
                for (size_t i = 1; i + 1 < tok.size(); ++i)
                    if (tok[i] == "nGpus" && whole(tok[i + 1], v)) t.gpus_per_process = uint32_t(v);
                if (tok.size() > 2 && tok[1] == "Rank" && whole(tok[2], v)) ranks.insert(v);
                continue;
            }
            uint64_t size = 0, count = 0;
            if (!whole(tok[0], size) || tok.size() < 2 || !whole(tok[1], count)) continue; // not a row
            const std::string where = source + ": line " + std::to_string(n) + ": ";
            // size count type redop [root] time algbw busbw #wrong [time algbw busbw #wrong]
            const bool root = tok.size() == 13 || tok.size() == 9;
            if (!root && tok.size() != 12 && tok.size() != 8) {
                problems.add(where + std::to_string(tok.size()) +
                             " columns; nccl-tests' 13 (size count type redop root, then time algbw busbw "
                             "#wrong out of place and in place) or 12 (before its root column) were "
                             "expected");
                continue;
            }
            MeasuredRow r;
            r.line = n;
            r.size_bytes = size;
            r.count = count;
            r.type = tok[2];
            r.redop = tok[3];
            const size_t at = root ? 5 : 4;
            NcclType type;
            if (!parse_nccl_type(r.type, type)) problems.add(where + nccl_type_problem("type", r.type));
            if (!known_redop(r.redop))
                problems.add(where + "redop '" + r.redop +
                             "'; sum, prod, max, min, avg or none was expected");
            if (!number(tok[at], r.time_us) || !number(tok[at + 1], r.algbw_gbs) ||
                !number(tok[at + 2], r.busbw_gbs))
                problems.add(where + "time, algbw, busbw '" + tok[at] + " " + tok[at + 1] + " " +
                             tok[at + 2] + "'; three numbers were expected");
            if (size > 0) t.rows.push_back(r);
        }
        t.ranks = uint32_t(ranks.size());
        if (!problems.is_ok()) return capped(problems, source);
        table = t;
    }
    if (table && table.value().rows.empty())
        return Status::error(source + ": no nccl-tests row (size, count, type, redop, [root,] time, algbw, "
                                      "busbw, ...) was found");
    return table;
}

} // namespace astrolabe::hardware
