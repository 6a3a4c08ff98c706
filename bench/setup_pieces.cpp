// astrolabe_bench --setup-pieces FILE: how a search point's set-up is cut (setup_pieces.h).
#include "bench/setup_pieces.h"

#include "core/search/scenario_evaluator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace astrolabe::bench {

namespace {

struct PieceStats {
    uint32_t count = 0;
    double total_ms = 0, longest_ms = 0;
};

// One set-up, a piece per advance(0), until the first simulation slice; prints the longest pieces by name.
void measure(search::ScenarioEvaluator& ev, const std::string& text, const char* what) {
    std::map<std::string, PieceStats> by_name;
    std::vector<std::pair<double, std::string>> each; // every piece: ms, "#N name"
    ev.begin(text);
    const auto t0 = std::chrono::steady_clock::now();
    uint32_t pieces = 0;
    while (ev.advance(0) && ev.setup_pieces() > pieces) {
        pieces = ev.setup_pieces();
        PieceStats& s = by_name[ev.last_piece()];
        ++s.count;
        s.total_ms += ev.last_piece_ms();
        s.longest_ms = std::max(s.longest_ms, ev.last_piece_ms());
        each.emplace_back(ev.last_piece_ms(), "#" + std::to_string(pieces) + " " + ev.last_piece());
    }
    const double total =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: set-up %.0f ms in %u pieces, longest %.1f ms (%s)\n", what, total, ev.setup_pieces(),
                ev.longest_piece_ms(), ev.longest_piece().c_str());
    std::vector<std::pair<std::string, PieceStats>> rows(by_name.begin(), by_name.end());
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a.second.longest_ms > b.second.longest_ms; });
    for (const auto& [name, s] : rows)
        std::printf("  %-34s %5u pieces %9.1f ms total, longest %6.1f ms\n", name.c_str(), s.count,
                    s.total_ms, s.longest_ms);
    std::sort(each.begin(), each.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::printf("  the 5 longest:");
    for (size_t i = 0; i < std::min<size_t>(5, each.size()); ++i)
        std::printf(" %.1f ms %s;", each[i].first, each[i].second.c_str());
    std::printf("\n");
}

} // namespace

int setup_pieces(const std::string& path, int runs) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "astrolabe_bench: --setup-pieces: cannot read %s\n", path.c_str());
        return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    std::string text = buf.str();
    // A search spec's base, or a scenario as it is.
    auto doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_discarded() && doc.is_object() && doc.contains("base")) text = doc["base"].dump();
    SessionHost host;
    for (int r = 0; r < runs; ++r) {
        search::ScenarioEvaluator ev(host);
        measure(ev, text, "new workload");
        measure(ev, text, "kept workload");
    }
    return 0;
}

} // namespace astrolabe::bench
