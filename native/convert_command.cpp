// `astrolabe convert IN OUT`: one Chakra trace file between the wire format (.et, gzip accepted) and the
// JSON form Chakra users know (protobuf json_format layout, core/trace/trace_json.h).
#include "core/trace/trace_json.h"
#include "core/trace/trace_reader.h"
#include "host/files.h"
#include "native/args.h"
#include "native/command_args.h"
#include "native/commands.h"

#include <cstdio>
#include <filesystem>

namespace astrolabe::cli {

namespace {

const std::vector<OptionSpec> kConvertOptions = {
    {"help", false, nullptr, "this text"},
};

const char* kConvertHelp =
    "astrolabe convert IN OUT: one Chakra trace file between .et and JSON\n"
    "\n"
    "  IN.et  -> OUT.json   decode (gzip-compressed .et accepted) and write protobuf json_format JSON\n"
    "  IN.json -> OUT.et    validate the JSON and write the Chakra wire format\n"
    "  OUT may be '-' to print JSON on stdout. The input kind follows IN's name (.json is JSON, anything\n"
    "  else a .et file); the output kind follows OUT's. Single files only: convert a set of NPU traces\n"
    "  (P.0.et, P.1.et, ...) one file at a time.\n"
    "\n";

bool ends_with(const std::string& s, const char* suffix) {
    std::string x(suffix);
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

} // namespace

int convert_command(const std::vector<std::string>& argv) {
    Args a;
    if (int rc = parse_command_line(argv, kConvertOptions, kConvertHelp, a); rc != kParsed) return rc;
    if (a.positionals.size() != 2)
        return fail("convert: expected two arguments, IN and OUT (got " +
                    std::to_string(a.positionals.size()) + "); see astrolabe convert --help");
    const std::string& in = a.positionals[0];
    const std::string& out = a.positionals[1];
    const bool to_stdout = out == "-";
    const bool out_json = to_stdout || ends_with(out, ".json");
    if (!out_json && !ends_with(out, ".et"))
        return fail("convert: OUT " + out +
                    ": the name must end in .json or .et (it decides the output format)");
    std::error_code ec;
    if (std::filesystem::is_directory(in, ec))
        return fail("convert: IN " + in +
                    " is a directory; convert takes one trace file (convert P.0.et, P.1.et, "
                    "... one at a time)");
    if (!to_stdout && std::filesystem::equivalent(in, out, ec))
        return fail("convert: IN and OUT are the same file (" + in + "); write to another name");

    auto bytes = host::read_file(in, "convert: input");
    if (!bytes.is_ok()) return fail(bytes.status().message());

    trace::Trace t;
    if (ends_with(in, ".json")) {
        auto r = trace::trace_from_json(bytes.value(), in);
        if (!r.is_ok()) return fail(r.status().message());
        t = std::move(r.value());
    } else {
        trace::ReadOptions opt;
        opt.keep_attributes = true; // every attribute verbatim, not only the ones simulators read
        auto r = trace::decode_trace(bytes.value(), in, opt);
        if (!r.is_ok()) return fail(r.status().message());
        t = std::move(r.value());
    }
    bytes.value().clear();

    std::string text = out_json ? trace::trace_to_json(t) : trace::encode_trace(t);
    if (to_stdout) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return std::fflush(stdout) == 0 ? 0 : fail("convert: writing to stdout failed");
    }
    Status st = host::write_file(out, text);
    if (!st.is_ok()) return fail("convert: " + st.message());
    return 0;
}

} // namespace astrolabe::cli
