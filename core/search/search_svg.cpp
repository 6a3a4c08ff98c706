// The two pictures of a search (search_run.h): the best objective so far against evaluations, and step
// time against network cost with the Pareto front. Plain SVG text, deterministic (fixed number format).
#include "core/search/search_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace astrolabe::search {

namespace {

constexpr double kW = 640, kH = 400, kL = 80, kR = 20, kT = 40, kB = 50;

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string label(double v) {
    char buf[32];
    // Plain digits up to a million (ticks of costs read "25000", not "2.5e+04"), scientific beyond.
    std::snprintf(buf, sizeof buf, std::abs(v) < 1e6 ? "%.6g" : "%.3g", v);
    return buf;
}

// The objective's axis label.
std::string objective_label(Objective o) {
    switch (o) {
    case Objective::StepTime:
        return "step time (ms)";
    case Objective::StepTimeXNetworkCost:
        return "step time (ns) x network cost";
    case Objective::StepTimeXBandwidth:
        return "step time (ns) x NPU bandwidth (GB/s)";
    case Objective::Pareto:
        return "step time (ns) x network cost (the agents' scalar)";
    }
    return "";
}

std::string esc(const std::string& s) {
    std::string out;
    for (char c : s)
        out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    return out;
}

// A linear axis over [lo, hi] with about five round ticks.
struct Axis {
    double lo = 0, hi = 1;
    void fit(double a, double b) {
        if (!(b > a)) {
            double pad = std::abs(a) > 0 ? std::abs(a) * 0.05 : 1;
            a -= pad;
            b += pad;
        }
        double span = b - a;
        double step = std::pow(10, std::floor(std::log10(span / 5)));
        for (double m : {1.0, 2.0, 5.0, 10.0})
            if (span / (step * m) <= 6) {
                step *= m;
                break;
            }
        lo = std::floor(a / step) * step;
        hi = std::ceil(b / step) * step;
        tick = step;
    }
    double tick = 0.2;
};

struct Frame {
    Axis x, y;
    double px(double v) const { return kL + (v - x.lo) / (x.hi - x.lo) * (kW - kL - kR); }
    double py(double v) const { return kH - kB - (v - y.lo) / (y.hi - y.lo) * (kH - kT - kB); }
};

std::string begin_svg(const Frame& f, const std::string& title, const std::string& xlabel,
                      const std::string& ylabel) {
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt(kW) + "\" height=\"" +
                    fmt(kH) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s += "<text x=\"" + fmt(kW / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" + esc(title) +
         "</text>\n";
    for (double v = f.x.lo; v <= f.x.hi + f.x.tick / 2; v += f.x.tick) {
        s += "<line x1=\"" + fmt(f.px(v)) + "\" y1=\"" + fmt(kT) + "\" x2=\"" + fmt(f.px(v)) + "\" y2=\"" +
             fmt(kH - kB) + "\" stroke=\"#eee\"/>\n";
        s += "<text x=\"" + fmt(f.px(v)) + "\" y=\"" + fmt(kH - kB + 16) + "\" text-anchor=\"middle\">" +
             label(v) + "</text>\n";
    }
    for (double v = f.y.lo; v <= f.y.hi + f.y.tick / 2; v += f.y.tick) {
        s += "<line x1=\"" + fmt(kL) + "\" y1=\"" + fmt(f.py(v)) + "\" x2=\"" + fmt(kW - kR) + "\" y2=\"" +
             fmt(f.py(v)) + "\" stroke=\"#eee\"/>\n";
        s += "<text x=\"" + fmt(kL - 6) + "\" y=\"" + fmt(f.py(v) + 4) + "\" text-anchor=\"end\">" +
             label(v) + "</text>\n";
    }
    s += "<rect x=\"" + fmt(kL) + "\" y=\"" + fmt(kT) + "\" width=\"" + fmt(kW - kL - kR) + "\" height=\"" +
         fmt(kH - kT - kB) + "\" fill=\"none\" stroke=\"#444\"/>\n";
    s += "<text x=\"" + fmt((kL + kW - kR) / 2) + "\" y=\"" + fmt(kH - 12) + "\" text-anchor=\"middle\">" +
         esc(xlabel) + "</text>\n";
    s += "<text transform=\"translate(16," + fmt((kT + kH - kB) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + esc(ylabel) + "</text>\n";
    return s;
}

std::string empty_svg(const std::string& title) {
    Frame f;
    return begin_svg(f, title + " (no successful evaluation)", "", "") + "</svg>\n";
}

} // namespace

std::string SearchRun::best_so_far_svg() const {
    const Impl& s = *impl_;
    const std::string title = "best " + s.spec.objective_name + " so far (agent " + s.options.agent + ")";
    std::vector<std::pair<double, double>> all, best; // (evaluation, objective)
    double b = std::numeric_limits<double>::infinity();
    for (const auto& r : s.log) {
        if (!r.ok() || std::isnan(r.objective)) continue;
        all.push_back({double(r.index + 1), r.objective});
        if (r.objective < b) {
            b = r.objective;
            best.push_back({double(r.index + 1), b});
        }
    }
    if (all.empty()) return empty_svg(title);
    // Objectives in ns are shown in ms; products keep their unit.
    const double scale = s.spec.objective == Objective::StepTime ? 1e-6 : 1;
    Frame f;
    double ymin = all[0].second, ymax = all[0].second;
    for (const auto& p : all) {
        ymin = std::min(ymin, p.second);
        ymax = std::max(ymax, p.second);
    }
    f.x.fit(0, double(s.log.size()));
    f.y.fit(ymin * scale, ymax * scale);
    std::string out = begin_svg(f, title, "evaluations", objective_label(s.spec.objective));
    for (const auto& p : all)
        out += "<circle cx=\"" + fmt(f.px(p.first)) + "\" cy=\"" + fmt(f.py(p.second * scale)) +
               "\" r=\"2\" fill=\"#9ab\"/>\n";
    std::string path;
    for (size_t i = 0; i < best.size(); ++i) {
        double x = f.px(best[i].first), y = f.py(best[i].second * scale);
        if (i) path += " H" + fmt(x);
        path += (i ? " V" : "M" + fmt(x) + " ") + fmt(y);
    }
    path += " H" + fmt(f.px(double(s.log.size())));
    out += "<path d=\"" + path + "\" fill=\"none\" stroke=\"#c33\" stroke-width=\"2\"/>\n";
    out += "<text x=\"" + fmt(kW - kR - 4) + "\" y=\"" + fmt(kT + 16) +
           "\" text-anchor=\"end\" fill=\"#c33\">best " + label(b * scale) + "</text>\n";
    return out + "</svg>\n";
}

std::string SearchRun::pareto_svg() const {
    const Impl& s = *impl_;
    const std::string title = "step time against network cost";
    std::vector<const Record*> ok;
    for (const auto& r : s.log)
        if (r.ok() && !std::isnan(r.network_cost)) ok.push_back(&r);
    if (ok.empty()) return empty_svg(title);
    Frame f;
    double xmin = ok[0]->network_cost, xmax = xmin, ymin = ok[0]->step_time_ns * 1e-6, ymax = ymin;
    for (const Record* r : ok) {
        xmin = std::min(xmin, r->network_cost);
        xmax = std::max(xmax, r->network_cost);
        ymin = std::min(ymin, r->step_time_ns * 1e-6);
        ymax = std::max(ymax, r->step_time_ns * 1e-6);
    }
    f.x.fit(xmin, xmax);
    f.y.fit(ymin, ymax);
    std::string out = begin_svg(f, title, "network cost", "step time (ms)");
    for (const Record* r : ok)
        out += "<circle cx=\"" + fmt(f.px(r->network_cost)) + "\" cy=\"" + fmt(f.py(r->step_time_ns * 1e-6)) +
               "\" r=\"2.5\" fill=\"#9ab\"/>\n";
    std::string path;
    std::string dots;
    auto front = pareto_indices(s.log);
    for (size_t i = 0; i < front.size(); ++i) {
        const Record& r = s.log[front[i]];
        double x = f.px(r.network_cost), y = f.py(r.step_time_ns * 1e-6);
        path += i ? " H" + fmt(x) + " V" + fmt(y) : "M" + fmt(x) + " " + fmt(y);
        dots += "<circle cx=\"" + fmt(x) + "\" cy=\"" + fmt(y) + "\" r=\"4\" fill=\"#c33\"><title>#" +
                std::to_string(r.index) + "</title></circle>\n";
    }
    out += "<path d=\"" + path + "\" fill=\"none\" stroke=\"#c33\" stroke-width=\"1.5\"/>\n" + dots;
    out += "<text x=\"" + fmt(kW - kR - 4) + "\" y=\"" + fmt(kT + 16) +
           "\" text-anchor=\"end\" fill=\"#c33\">Pareto front: " + std::to_string(front.size()) + " of " +
           std::to_string(ok.size()) + " points</text>\n";
    return out + "</svg>\n";
}

} // namespace astrolabe::search
