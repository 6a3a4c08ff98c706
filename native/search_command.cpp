// `astrolabe search SPEC.json`: a design-space search (core/search) with a thread pool of evaluators,
// the output folder, resuming from it, and the stdio protocol for external agents. docs/search.md.
//
// [SECTION] Options
// [SECTION] The log file
// [SECTION] Evaluating batches
// [SECTION] The command
#include "core/search/search_run.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"
#include "native/progress.h"
#include "native/search_evaluator.h"
#include "native/search_mpi.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <thread>

namespace astrolabe::cli {

namespace fs = std::filesystem;

namespace {

// [SECTION] Options

const std::vector<OptionSpec> kSearchOptions = {
    {"agent", true, nullptr, "grid | random | ga | aco | bo | stdio (default random)"},
    {"budget", true, nullptr, "evaluations (distinct points) at most (default 100)"},
    {"seed", true, nullptr, "seed of the agent's random draws (default 1)"},
    {"jobs", true, nullptr, "simulations run at once (default: every core); results do not depend on it"},
    {"out", true, nullptr, "output folder (created; an earlier search of the same spec there is resumed)"},
    {"quiet", false, nullptr, "no progress line and no summary"},
    {"help", false, nullptr, "this text"},
};

bool parse_count(const std::string& s, uint64_t& out, uint64_t min) {
    if (s.empty() || s.size() > 15 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(s);
    return out >= min;
}

// [SECTION] The log file

// evaluations.jsonl, written as lines arrive. A resumed search regenerates the same lines for the points
// it finds in the old file; those are not written again. If the new lines differ from the old ones (another
// agent, seed or budget over the same spec), the file is rewritten from the new lines at the first
// difference, so it always holds exactly this search's log.
class LogFile {
public:
    LogFile(std::string path, std::vector<std::string> old) : path_(std::move(path)), old_(std::move(old)) {}
    ~LogFile() {
        if (f_) std::fclose(f_);
    }
    Status add(const std::string& line) {
        const size_t p = lines_.size();
        lines_.push_back(line);
        if (!diverged_ && p < old_.size() && old_[p] == line) return Status::ok();
        if (!diverged_) {
            diverged_ = true;
            f_ = std::fopen(path_.c_str(), "wb");
            if (!f_) return Status::error(path_ + ": cannot write");
            for (size_t i = 0; i < p; ++i)
                std::fprintf(f_, "%s\n", lines_[i].c_str());
        }
        std::fprintf(f_, "%s\n", line.c_str());
        return Status::ok();
    }
    // After each batch: a search killed later keeps every line written so far.
    void flush() {
        if (f_) std::fflush(f_);
    }
    // At the end: a file longer than this search's log (a rerun with a smaller budget) is cut to it.
    Status finish() {
        if (!diverged_ && lines_.size() != old_.size()) {
            std::string all;
            for (const auto& l : lines_)
                all += l + "\n";
            return write_file(path_, all);
        }
        if (!diverged_ && old_.empty()) return write_file(path_, "");
        return Status::ok();
    }

private:
    std::string path_;
    std::vector<std::string> old_;
    std::vector<std::string> lines_;
    bool diverged_ = false;
    std::FILE* f_ = nullptr;
};

// [SECTION] Evaluating batches

// Evaluates a batch on up to `jobs` threads, one evaluator each; results in the batch's order.
std::vector<search::EvalResult> evaluate_all(const std::vector<std::string>& batch,
                                             std::vector<std::unique_ptr<search::Evaluator>>& evaluators) {
    std::vector<search::EvalResult> results(batch.size());
    std::atomic<size_t> next{0};
    auto work = [&](search::Evaluator& ev) {
        for (size_t i; (i = next.fetch_add(1)) < batch.size();) {
            try {
                results[i] = ev.evaluate(batch[i]);
            } catch (const std::bad_alloc&) {
                results[i] = {search::EvalResult::Status::Error, 0, "out of memory"};
            } catch (const std::exception& e) {
                results[i] = {search::EvalResult::Status::Error, 0, e.what()};
            }
        }
    };
    const size_t threads = std::min(evaluators.size(), batch.size());
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t)
        pool.emplace_back(work, std::ref(*evaluators[t]));
    work(*evaluators[0]);
    for (auto& th : pool)
        th.join();
    return results;
}

std::string progress_detail(const search::SearchRun& run, double wall) {
    char buf[200];
    const auto& c = run.counts();
    double rate = wall > 0 ? double(c.evaluations) / wall : 0;
    double left = double(run.budget() - std::min<uint64_t>(run.budget(), c.evaluations));
    std::string best = "-";
    if (run.has_best()) {
        std::snprintf(buf, sizeof buf, "%.4g ms", double(run.best_step_time_ns()) / 1e6);
        best = buf;
    }
    std::snprintf(buf, sizeof buf, "%llu/%llu evals  best %s  %.1f evals/s  ETA %.0f s",
                  static_cast<unsigned long long>(c.evaluations),
                  static_cast<unsigned long long>(run.budget()), best.c_str(), rate,
                  rate > 0 ? left / rate : 0.0);
    return buf;
}

} // namespace

// [SECTION] The command

namespace {

uint64_t default_jobs() {
    return std::max(1u, std::thread::hardware_concurrency());
}

constexpr const char* kSearchMainUsage =
    "astrolabe search SPEC.json --out DIR: search a design space (docs/search.md)\n\n";

int search_main(const std::vector<std::string>& argv, const MpiSearch& mpi) {
    Args a;
    if (int rc = parse_command_line(argv, kSearchOptions, kSearchMainUsage, a); rc != kParsed) return rc;
    Status problems;
    if (a.positionals.size() != 1)
        problems.add("search: one spec file (astrolabe.search/1 JSON) was expected");
    if (!a.has("out")) problems.add("--out: missing; the output folder is required");
    search::SearchOptions opt;
    opt.agent = a.get("agent", "random");
    if (a.has("budget") && !parse_count(a.get("budget"), opt.budget, 1))
        problems.add("--budget: '" + a.get("budget") + "'; a whole number >= 1 was expected");
    if (a.has("seed") && !parse_count(a.get("seed"), opt.seed, 0))
        problems.add("--seed: '" + a.get("seed") + "'; a whole number was expected");
    uint64_t jobs = default_jobs();
    if (a.has("jobs") && !parse_count(a.get("jobs"), jobs, 1))
        problems.add("--jobs: '" + a.get("jobs") + "'; a whole number >= 1 was expected");
    if (jobs > 1024) jobs = 1024;
    if (!problems.is_ok()) return fail(problems.message());

    const std::string spec_path = a.positionals[0];
    const fs::path spec_dir = fs::absolute(fs::path(spec_path)).parent_path();
    auto text = read_file(spec_path, "search spec");
    if (!text.is_ok()) return fail(text.status().message());
    auto created = search::SearchRun::create(
        text.value(), spec_path,
        [&](const std::string& p) { return read_file((spec_dir / p).string(), "base scenario"); }, opt);
    if (!created.is_ok()) return fail(created.status().message());
    search::SearchRun run = std::move(created.value());
    run.resolve_prefix([&](const std::string& p) {
        return fs::path(p).is_absolute() ? p : (spec_dir / p).lexically_normal().string();
    });

    // The output folder: one spec per folder; an earlier log of the same spec is reused.
    const fs::path out = a.get("out");
    std::error_code ec;
    fs::create_directories(out, ec);
    if (!fs::is_directory(out)) return fail("--out: cannot create the folder " + out.string());
    const std::string spec_copy = (out / "spec.fingerprint.json").string();
    if (fs::exists(spec_copy)) {
        auto old = read_file(spec_copy, "earlier spec");
        if (old.is_ok() && old.value() != run.fingerprint() + "\n")
            return fail("--out " + out.string() + ": it holds a search of another spec (" + spec_copy +
                        " differs); use another folder or empty this one");
    }
    std::vector<std::string> old_lines;
    const std::string log_path = (out / "evaluations.jsonl").string();
    if (fs::exists(log_path)) {
        auto old = read_file(log_path, "earlier log");
        if (!old.is_ok()) return fail(old.status().message());
        run.load_previous(old.value());
        size_t pos = 0;
        const std::string& t = old.value();
        for (size_t end; (end = t.find('\n', pos)) != std::string::npos; pos = end + 1)
            old_lines.push_back(t.substr(pos, end - pos));
    }
    Status st = write_file(spec_copy, run.fingerprint() + "\n");
    if (!st.is_ok()) return fail(st.message());
    LogFile log(log_path, std::move(old_lines));

    std::vector<std::unique_ptr<search::Evaluator>> evaluators;
    for (uint64_t j = 0; j < jobs; ++j)
        evaluators.push_back(std::make_unique<ScenarioEvaluator>(spec_dir));
    const LocalBatch local = [&](const std::vector<std::string>& b) { return evaluate_all(b, evaluators); };

    const bool quiet = a.has("quiet");
    const auto start = std::chrono::steady_clock::now();
    auto wall = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    auto write_lines = [&]() -> Status {
        for (const auto& l : run.take_lines()) {
            Status s = log.add(l);
            if (!s.is_ok()) return s;
        }
        log.flush();
        return Status::ok();
    };
    {
        ProgressBar bar("searching", !quiet);
        if (opt.agent == "stdio") {
            // One line in (a point or a list of points), one line out per point, flushed at once.
            std::string line;
            while (std::getline(std::cin, line)) {
                if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
                Status s = run.submit(line);
                if (!s.is_ok()) {
                    std::string msg = s.message();
                    for (char& c : msg)
                        if (c == '\n') c = ';';
                    std::printf("{\"status\":\"error\",\"reason\":\"%s\"}\n", msg.c_str());
                    std::fflush(stdout);
                    continue;
                }
                auto batch = run.submitted_batch();
                if (!batch.empty()) run.complete_batch(mpi_evaluate(mpi, batch, local));
                Status w = write_lines();
                if (!w.is_ok()) return fail(w.message());
                for (const auto& ans : run.take_answers())
                    std::printf("%s\n", ans.c_str());
                std::fflush(stdout);
                bar.update(run.counts().evaluations, run.budget(), progress_detail(run, wall()));
            }
        } else {
            for (;;) {
                auto batch = run.next_batch();
                if (batch.empty()) break;
                run.complete_batch(mpi_evaluate(mpi, batch, local));
                Status w = write_lines();
                if (!w.is_ok()) return fail(w.message());
                if (bar.due())
                    bar.update(run.counts().evaluations, run.budget(), progress_detail(run, wall()));
            }
            Status w = write_lines();
            if (!w.is_ok()) return fail(w.message());
        }
    }
    const double wall_s = wall();
    Status fin = log.finish();
    if (!fin.is_ok()) return fail(fin.message());
    Status outs;
    auto put = [&](const char* name, const std::string& bytes) {
        Status s = write_file((out / name).string(), bytes);
        if (!s.is_ok()) outs.merge(s);
    };
    put("evaluations.csv", run.csv());
    put("summary.json", run.summary_json(wall_s));
    put("best_so_far.svg", run.best_so_far_svg());
    put("pareto.svg", run.pareto_svg());
    put("pareto.jsonl", run.pareto_jsonl());
    if (run.has_best()) put("best.scenario.json", run.best_scenario_json());
    if (!outs.is_ok()) return fail(outs.message());

    if (!quiet) {
        const auto& c = run.counts();
        std::FILE* to = opt.agent == "stdio" ? stderr : stdout;
        std::fprintf(to,
                     "%llu evaluations (%llu simulated, %llu from the earlier log, %llu infeasible, %llu "
                     "errors) in %.1f s\n",
                     static_cast<unsigned long long>(c.evaluations),
                     static_cast<unsigned long long>(c.simulated), static_cast<unsigned long long>(c.cached),
                     static_cast<unsigned long long>(c.infeasible), static_cast<unsigned long long>(c.errors),
                     wall_s);
        if (run.has_best())
            std::fprintf(to, "best: step time %lld ns, objective %.6g -> %s\n",
                         static_cast<long long>(run.best_step_time_ns()), run.best_objective(),
                         (out / "best.scenario.json").string().c_str());
        else if (c.evaluations > c.infeasible + c.errors)
            std::fprintf(to, "no point has a value of the objective (the network cost and bandwidth are "
                             "read from the scenario's network dimensions or hardware description)\n");
        else
            std::fprintf(to, "no point could be simulated\n");
        if (!run.stop_reason().empty()) std::fprintf(to, "stopped: %s\n", run.stop_reason().c_str());
    }
    return 0;
}

} // namespace

int search_command(const std::vector<std::string>& argv) {
    const MpiSearch mpi = mpi_start();
    if (mpi.rank != 0) {
        // Another rank: evaluate shares of rank 0's batches with --jobs threads. The scenarios arrive with
        // their workload paths resolved; the spec's folder still anchors anything relative left.
        auto parsed = parse_args(argv, kSearchOptions);
        uint64_t jobs = default_jobs();
        fs::path spec_dir;
        if (parsed.is_ok()) {
            const Args& a = parsed.value();
            if (a.has("jobs") && !parse_count(a.get("jobs"), jobs, 1)) jobs = 1;
            if (!a.positionals.empty()) spec_dir = fs::absolute(fs::path(a.positionals[0])).parent_path();
        }
        std::vector<std::unique_ptr<search::Evaluator>> evaluators;
        for (uint64_t j = 0; j < std::min<uint64_t>(jobs, 1024); ++j)
            evaluators.push_back(std::make_unique<ScenarioEvaluator>(spec_dir));
        mpi_serve(mpi, [&](const std::vector<std::string>& b) { return evaluate_all(b, evaluators); });
        mpi_finish(mpi);
        return 0;
    }
    int rc = search_main(argv, mpi);
    mpi_finish(mpi);
    return rc;
}

} // namespace astrolabe::cli
