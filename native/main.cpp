// astrolabe: the native command line. Thin: arguments and files here, everything else in core/.
#include "native/commands.h"
#include "native/suggest.h"

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace {

const char* kUsage =
    "astrolabe - a simulator of distributed AI systems (Chakra execution traces)\n"
    "\n"
    "usage:\n"
    "  astrolabe run --workload P --system S.json --network N.yml [--memory M.json] [--comm-groups G.json]\n"
    "                [--network-model analytical|congestion|flow] [--compute-model "
    "system|trace|roofline|systolic]\n"
    "                [--report out.json] [--timeline out.trace.json] [--quiet]\n"
    "  astrolabe run --scenario scenario.json [--report ...]\n"
    "  astrolabe run --link 'URL#s=...' [--report ...]   a browser share link's scenario\n"
    "  astrolabe share scenario.json [--base URL] [--embed]   the browser share link for a scenario\n"
    "  astrolabe inspect P [--json]          what a trace set holds\n"
    "  astrolabe generate microbench --collective all_reduce --size 1MiB --npus N -o P\n"
    "  astrolabe generate transformer --preset llama3-8b [--dp D --tp T --pp P ...] -o P [--dry-run]\n"
    "  astrolabe generate inference --phase prefill|decode [model and parallel options] -o P\n"
    "  astrolabe rescale P --npus M -o Q     a data-parallel trace set for N NPUs rewritten for M\n"
    "  astrolabe convert IN OUT              .et <-> .json (Chakra's JSON form)\n"
    "  astrolabe compute --model systolic --array RxC --dataflow os|ws|is --gemm M,N,K [--json]\n"
    "  astrolabe collective-perf --op all_reduce --hardware HW.json -b 8 -e 16G -f 2 [--json]   nccl-tests' "
    "table\n"
    "  astrolabe search SPEC.json --agent grid|random|ga|aco|bo|stdio --budget N --seed S --jobs J --out "
    "DIR\n"
    "\n"
    "`astrolabe <command> --help` lists a command's options. Exit codes: 0 ok, 2 bad input (including runs "
    "that cannot complete), 3 a partial run (--max-sim-time, --max-wall-time or Ctrl-C stopped it).\n";

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::puts("astrolabe 0.1.0");
        return 0;
    }
    std::string cmd = args[0];
    args.erase(args.begin());
    try {
        if (cmd == "run") return astrolabe::cli::run_command(args);
        if (cmd == "inspect") return astrolabe::cli::inspect_command(args);
        if (cmd == "convert") return astrolabe::cli::convert_command(args);
        if (cmd == "generate") return astrolabe::cli::generate_command(args);
        if (cmd == "share") return astrolabe::cli::share_command(args);
        if (cmd == "rescale") return astrolabe::cli::rescale_command(args);
        if (cmd == "compute") return astrolabe::cli::compute_command(args);
        if (cmd == "collective-perf") return astrolabe::cli::collective_perf_command(args);
        if (cmd == "search") return astrolabe::cli::search_command(args);
    } catch (const std::bad_alloc&) {
        std::fputs("error: out of memory\n", stderr);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    const std::string near = astrolabe::cli::nearest_spelling(
        cmd, {"run", "inspect", "convert", "generate", "share", "rescale", "compute"});
    std::fprintf(stderr, "error: unknown command '%s'%s\n\n%s", cmd.c_str(),
                 near.empty() ? "" : ("; did you mean " + near + "?").c_str(), kUsage);
    return 2;
}
