// Chakra trace <-> json_format-style JSON.
//
// Index:
// [SECTION] writing: ASCII strings and Python-style numbers
// [SECTION] writing: trace -> text
// [SECTION] reading: scalars
// [SECTION] reading: attributes, nodes, metadata
// [SECTION] entry points
//
// The writer is hand-rolled rather than a DOM dump so the bytes match what Chakra users get from
// `json_format.MessageToJson(..., preserving_proto_field_name=True, indent=1)` (Python's float repr and
// ensure_ascii escaping) and never depend on a library's formatting choices.
//
// Reading: config owns JSON text (core/config/json_read.h parses it, the one place nlohmann_json is
// wrapped); this file maps the parsed tree onto the trace graph, which is trace's business. It is the one
// file outside core/config that sees the parsed tree (checked by tests/layers).
#include "core/trace/trace_json.h"

#include "core/base/base64.h"
#include "core/config/json_read.h"
#include "core/trace/trace_reader.h"

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace astrolabe::trace {

using config::detail::describe;
using config::detail::json;
using trace::Attribute;
using trace::AttrKind;

namespace {

// [SECTION] writing: ASCII strings and Python-style numbers

// Decodes one UTF-8 sequence at s[i]; returns the code point and advances i, or U+FFFD for an invalid byte
// (advancing one byte), so any input produces valid JSON.
uint32_t next_code_point(std::string_view s, size_t& i) {
    auto b = [&s](size_t k) { return static_cast<uint8_t>(s[k]); };
    uint8_t c = b(i);
    int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    size_t start = i++;
    if (len == 1) return c;
    if (len == 0 || start + len > s.size()) return 0xfffd;
    uint32_t cp = c & (0x7f >> len);
    for (int k = 1; k < len; ++k) {
        if ((b(start + k) & 0xc0) != 0x80) return 0xfffd;
        cp = cp << 6 | (b(start + k) & 0x3f);
    }
    static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0xfffd;
    i = start + len;
    return cp;
}

// Python's json.dumps(ensure_ascii=True): everything outside ' '..'~' escaped, lower-case hex.
void append_string(std::string& out, std::string_view s) {
    out += '"';
    char buf[16];
    for (size_t i = 0; i < s.size();) {
        uint32_t cp = next_code_point(s, i);
        switch (cp) {
        case '"':
            out += "\\\"";
            continue;
        case '\\':
            out += "\\\\";
            continue;
        case '\n':
            out += "\\n";
            continue;
        case '\r':
            out += "\\r";
            continue;
        case '\t':
            out += "\\t";
            continue;
        case '\b':
            out += "\\b";
            continue;
        case '\f':
            out += "\\f";
            continue;
        default:
            break;
        }
        if (cp >= 0x20 && cp < 0x7f) {
            out += static_cast<char>(cp);
        } else if (cp < 0x10000) {
            std::snprintf(buf, sizeof buf, "\\u%04x", cp);
            out += buf;
        } else {
            cp -= 0x10000;
            std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
            out += buf;
        }
    }
    out += '"';
}

// Python's repr() of a float given its shortest round-trip digits: scientific below 1e-4 and from 1e16 on,
// otherwise positional with at least one fractional digit ("2.0").
std::string python_repr(double v, bool as_float) {
    if (std::isnan(v)) return "\"NaN\"";
    if (std::isinf(v)) return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
    char buf[48];
    for (int p = 1; p <= 17; ++p) {
        std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        double back = std::strtod(buf, nullptr);
        if (as_float ? static_cast<float>(back) == static_cast<float>(v) : back == v) break;
    }
    std::string text = buf, digits, out;
    size_t e = text.find('e');
    int exp = std::atoi(text.c_str() + e + 1);
    for (size_t k = 0; k < e; ++k)
        if (text[k] >= '0' && text[k] <= '9') digits += text[k];
    while (digits.size() > 1 && digits.back() == '0')
        digits.pop_back();
    if (v < 0) out += '-';
    if (exp < -4 || exp >= 16) {
        out += digits[0];
        if (digits.size() > 1) out += "." + digits.substr(1);
        std::snprintf(buf, sizeof buf, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
        return out + buf;
    }
    if (exp < 0) return out + "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
    size_t int_len = static_cast<size_t>(exp) + 1;
    if (digits.size() <= int_len) return out + digits + std::string(int_len - digits.size(), '0') + ".0";
    return out + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

// [SECTION] writing: trace -> text

// A pretty printer with Python json.dumps(indent=1) layout; values arrive already formatted.
class Emitter {
public:
    void open(char bracket) {
        item();
        out_ += bracket;
        first_.push_back(true);
    }
    void close(char bracket) {
        bool empty = first_.back();
        first_.pop_back();
        if (!empty) newline();
        out_ += bracket;
    }
    void key(std::string_view k) {
        item();
        append_string(out_, k);
        out_ += ": ";
        after_key_ = true;
    }
    void raw(std::string_view v) {
        item();
        out_ += v;
    }
    void str(std::string_view s) {
        item();
        append_string(out_, s);
    }
    std::string finish() { return std::move(out_) + "\n"; }

private:
    void item() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (first_.empty()) return;
        if (!first_.back()) out_ += ',';
        first_.back() = false;
        newline();
    }
    void newline() {
        out_ += '\n';
        out_.append(first_.size(), ' ');
    }
    std::string out_;
    std::vector<bool> first_;
    bool after_key_ = false;
};

// Writes one scalar of kind `k` taken from `a` at index i (json_format: 64-bit integers as strings).
void write_scalar(Emitter& e, const Attribute& a, AttrKind k, size_t i) {
    auto u = [&] { return i < a.uints.size() ? a.uints[i] : 0; };
    auto s = [&] { return i < a.ints.size() ? a.ints[i] : 0; };
    auto r = [&] { return i < a.reals.size() ? a.reals[i] : 0.0; };
    auto q = [](const std::string& x) { return "\"" + x + "\""; };
    switch (k) {
    case AttrKind::Double:
        e.raw(python_repr(r(), false));
        break;
    case AttrKind::Float:
        e.raw(python_repr(static_cast<float>(r()), true));
        break;
    case AttrKind::Int32:
    case AttrKind::Sint32:
    case AttrKind::Sfixed32:
        e.raw(std::to_string(static_cast<int32_t>(s())));
        break;
    case AttrKind::Int64:
    case AttrKind::Sint64:
    case AttrKind::Sfixed64:
        e.raw(q(std::to_string(s())));
        break;
    case AttrKind::Uint32:
    case AttrKind::Fixed32:
        e.raw(std::to_string(static_cast<uint32_t>(u())));
        break;
    case AttrKind::Uint64:
    case AttrKind::Fixed64:
        e.raw(q(std::to_string(u())));
        break;
    case AttrKind::Bool:
        e.raw(u() ? "true" : "false");
        break;
    case AttrKind::String:
        e.str(i < a.strings.size() ? a.strings[i] : std::string());
        break;
    case AttrKind::Bytes:
        e.raw(q(base64_encode(i < a.strings.size() ? a.strings[i] : std::string())));
        break;
    default:
        e.raw("null");
        break; // unreachable: list kinds are unfolded by the caller
    }
}

size_t list_length(const Attribute& a) {
    return std::max(std::max(a.ints.size(), a.uints.size()), std::max(a.reals.size(), a.strings.size()));
}

void write_attr(Emitter& e, const Attribute& a) {
    e.open('{');
    if (!a.name.empty()) e.key("name"), e.str(a.name);
    if (!a.doc_string.empty()) e.key("doc_string"), e.str(a.doc_string);
    if (a.kind != AttrKind::None) {
        e.key(trace::attr_kind_name(a.kind));
        if (trace::attr_kind_is_list(a.kind)) {
            // A list member is a message {values: [...]}; the element kind is the preceding oneof member.
            auto elem = static_cast<AttrKind>(static_cast<int>(a.kind) - 1);
            size_t n = list_length(a);
            e.open('{');
            if (n > 0) {
                e.key("values");
                e.open('[');
                for (size_t i = 0; i < n; ++i)
                    write_scalar(e, a, elem, i);
                e.close(']');
            }
            e.close('}');
        } else {
            write_scalar(e, a, a.kind, 0);
        }
    }
    e.close('}');
}

void write_attrs(Emitter& e, const std::vector<Attribute>& attrs) {
    if (attrs.empty()) return;
    e.key("attr");
    e.open('[');
    for (const auto& a : attrs)
        write_attr(e, a);
    e.close(']');
}

// A node decoded without keep_attributes: write its typed fields as attributes, with the kinds the wire
// writer (encode_trace) uses, so JSON and .et agree.
std::vector<Attribute> typed_attrs(const trace::Node& n) {
    std::vector<Attribute> out;
    bool any = n.is_cpu_op || n.num_ops || n.tensor_size || n.comm_type || n.comm_size || n.comm_src ||
               n.comm_dst || n.comm_tag || n.comm_priority || n.tensor_loc || n.involved_dim || n.pg_name ||
               n.gemm_m || n.gemm_n || n.gemm_k || n.gemm_batch;
    if (!any) return out;
    auto add = [&out](const char* name, AttrKind k) -> Attribute& {
        out.push_back(Attribute{name, "", k, {}, {}, {}, {}});
        return out.back();
    };
    add("is_cpu_op", AttrKind::Bool).uints = {n.is_cpu_op ? 1u : 0u};
    if (n.num_ops) add("num_ops", AttrKind::Int64).ints = {static_cast<int64_t>(*n.num_ops)};
    if (n.tensor_size) add("tensor_size", AttrKind::Uint64).uints = {*n.tensor_size};
    if (n.gemm_m) add("gemm_m", AttrKind::Int64).ints = {static_cast<int64_t>(*n.gemm_m)};
    if (n.gemm_n) add("gemm_n", AttrKind::Int64).ints = {static_cast<int64_t>(*n.gemm_n)};
    if (n.gemm_k) add("gemm_k", AttrKind::Int64).ints = {static_cast<int64_t>(*n.gemm_k)};
    if (n.gemm_batch) add("gemm_batch", AttrKind::Int64).ints = {static_cast<int64_t>(*n.gemm_batch)};
    if (n.comm_type) add("comm_type", AttrKind::Int64).ints = {static_cast<int64_t>(*n.comm_type)};
    if (n.comm_size) add("comm_size", AttrKind::Int64).ints = {static_cast<int64_t>(*n.comm_size)};
    if (n.comm_src) add("comm_src", AttrKind::Int32).ints = {*n.comm_src};
    if (n.comm_dst) add("comm_dst", AttrKind::Int32).ints = {*n.comm_dst};
    if (n.comm_tag) add("comm_tag", AttrKind::Int32).ints = {*n.comm_tag};
    if (n.comm_priority) add("comm_priority", AttrKind::Int32).ints = {*n.comm_priority};
    if (n.tensor_loc) add("tensor_loc", AttrKind::Uint32).uints = {*n.tensor_loc};
    if (n.involved_dim) {
        auto& a = add("involved_dim", AttrKind::BoolList);
        for (bool b : *n.involved_dim)
            a.uints.push_back(b ? 1 : 0);
    }
    if (n.pg_name) add("pg_name", AttrKind::String).strings = {*n.pg_name};
    return out;
}

void write_io(Emitter& e, const char* key, const trace::IoInfo& io) {
    if (io.empty()) return;
    e.key(key);
    e.open('{');
    if (!io.values.empty()) e.key("values"), e.str(io.values);
    if (!io.shapes.empty()) e.key("shapes"), e.str(io.shapes);
    if (!io.types.empty()) e.key("types"), e.str(io.types);
    e.close('}');
}

void write_ids(Emitter& e, const char* key, const std::vector<uint64_t>& ids) {
    if (ids.empty()) return;
    e.key(key);
    e.open('[');
    for (uint64_t id : ids)
        e.raw("\"" + std::to_string(id) + "\"");
    e.close(']');
}

void write_node(Emitter& e, const trace::Node& n) {
    e.open('{');
    if (n.id != 0) e.key("id"), e.raw("\"" + std::to_string(n.id) + "\"");
    if (!n.name.empty()) e.key("name"), e.str(n.name);
    uint32_t type = n.raw_type ? n.raw_type : static_cast<uint32_t>(n.type);
    if (type != 0) {
        e.key("type");
        if (type < static_cast<uint32_t>(trace::kNodeTypeCount))
            e.str(trace::node_type_name(static_cast<trace::NodeType>(type)));
        else
            e.raw(std::to_string(type)); // json_format writes unknown enum values as numbers
    }
    write_ids(e, "ctrl_deps", n.ctrl_deps);
    write_ids(e, "data_deps", n.data_deps);
    if (n.start_time_micros)
        e.key("start_time_micros"), e.raw("\"" + std::to_string(n.start_time_micros) + "\"");
    if (n.duration_micros) e.key("duration_micros"), e.raw("\"" + std::to_string(n.duration_micros) + "\"");
    write_io(e, "inputs", n.inputs);
    write_io(e, "outputs", n.outputs);
    write_attrs(e, n.attrs.empty() ? typed_attrs(n) : n.attrs);
    e.close('}');
}

// [SECTION] reading: scalars

// Why a value is not an integer in [lo, hi] (signed targets) or [0, hi] (unsigned), or "" when it is.
// json_format accepts numbers and decimal strings; integral floats ("1e3") are accepted too.
std::string read_integer(const json& v, bool is_signed, uint64_t hi, int64_t lo, int64_t& s, uint64_t& u) {
    bool neg = false;
    uint64_t mag = 0;
    if (v.is_number_unsigned()) {
        mag = v.get<uint64_t>();
    } else if (v.is_number_integer()) {
        int64_t x = v.get<int64_t>();
        neg = x < 0;
        mag = neg ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
    } else if (v.is_number_float()) {
        double d = v.get<double>();
        if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) >= 18446744073709551616.0)
            return "is " + v.dump() + "; an integer was expected";
        neg = d < 0;
        mag = static_cast<uint64_t>(std::fabs(d));
    } else if (v.is_string()) {
        const std::string& t = v.get_ref<const std::string&>();
        size_t k = 0;
        if (!t.empty() && t[0] == '-') neg = true, k = 1;
        if (k == t.size()) return "is " + describe(v) + "; an integer was expected";
        for (; k < t.size(); ++k) {
            if (t[k] < '0' || t[k] > '9') return "is " + describe(v) + "; an integer was expected";
            uint64_t digit = static_cast<uint64_t>(t[k] - '0');
            if (mag > (UINT64_MAX - digit) / 10) return "is " + describe(v) + "; out of the 64-bit range";
            mag = mag * 10 + digit;
        }
    } else {
        return "is " + describe(v) + "; an integer (a number or a decimal string) was expected";
    }
    std::string text = (neg ? "-" : "") + std::to_string(mag);
    if (!is_signed) {
        if ((neg && mag != 0) || mag > hi)
            return "is " + text + "; an integer from 0 to " + std::to_string(hi) + " was expected";
        u = mag;
        return "";
    }
    uint64_t lo_mag = 0 - static_cast<uint64_t>(lo);
    if ((neg && mag > lo_mag) || (!neg && mag > hi))
        return "is " + text + "; an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
               " was expected";
    s = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
    return "";
}

// json_format's floats: numbers, or the strings "NaN", "Infinity", "-Infinity" (and numeric strings).
std::string read_real(const json& v, bool is_float, double& out) {
    if (v.is_number()) {
        out = v.get<double>();
    } else if (v.is_string()) {
        const std::string& t = v.get_ref<const std::string&>();
        if (t == "NaN")
            out = NAN;
        else if (t == "Infinity")
            out = INFINITY;
        else if (t == "-Infinity")
            out = -INFINITY;
        else {
            char* end = nullptr;
            out = t.empty() ? 0 : std::strtod(t.c_str(), &end);
            if (t.empty() || *end != '\0' || std::isnan(out))
                return "is " + describe(v) +
                       "; a number, \"NaN\", \"Infinity\" or \"-Infinity\" was expected";
        }
    } else {
        return "is " + describe(v) + "; a number was expected";
    }
    if (is_float && std::isfinite(out)) {
        if (std::fabs(out) > FLT_MAX) return "is " + v.dump() + "; beyond the range of a float";
        out = static_cast<float>(out);
    }
    return "";
}

// [SECTION] reading: attributes, nodes, metadata

class JsonTraceReader {
public:
    explicit JsonTraceReader(const std::string& source) : source_(source) {}

    void read_top(const json& j, trace::Trace& t) {
        if (!j.is_object())
            return problem("", "the document is " + describe(j) +
                                   "; an object {\"global_metadata\": {...}, \"nodes\": [...]} was expected");
        for_each_key(j, "", {"global_metadata", "nodes"}, [&](const std::string& k, const json& v) {
            if (k == "global_metadata")
                read_metadata(v, t.metadata);
            else if (!v.is_array())
                problem("nodes", "is " + describe(v) + "; an array of nodes was expected");
            else {
                t.nodes.reserve(v.size());
                for (size_t i = 0; i < v.size() && !full(); ++i) {
                    t.nodes.emplace_back();
                    read_node(v[i], i, t.nodes.back());
                }
            }
        });
    }

    Status take() {
        if (full())
            problems_.add(source_ + ": (stopped after " + std::to_string(kMaxProblems) + " problems)");
        return std::move(problems_);
    }

private:
    static constexpr size_t kMaxProblems = 20;
    bool full() const { return problems_.problems().size() >= kMaxProblems; }

    void problem(const std::string& path, const std::string& what) {
        if (!full()) problems_.add(source_ + ": " + (path.empty() ? "" : path + ": ") + what);
    }

    // json_format also accepts lowerCamelCase names ("ctrlDeps", "int64Val"): fold them to the proto names.
    static std::string proto_name(const std::string& key) {
        std::string out;
        for (char c : key) {
            if (c >= 'A' && c <= 'Z')
                out += '_', out += static_cast<char>(c - 'A' + 'a');
            else
                out += c;
        }
        return out;
    }

    // Calls fn(proto name, value) for each key, in document order; null values count as absent (as in
    // json_format); unknown or repeated keys are problems.
    template <typename Fn>
    void for_each_key(const json& obj, const std::string& path, std::initializer_list<const char*> known,
                      Fn fn) {
        std::vector<std::string> seen;
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            std::string k = proto_name(it.key());
            std::string where = path.empty() ? it.key() : path + "." + it.key();
            bool ok = false;
            for (const char* n : known)
                ok = ok || k == n;
            if (!ok) {
                std::string list;
                for (const char* n : known)
                    list += (list.empty() ? "" : ", ") + std::string(n);
                problem(where, "unknown key; expected one of " + list);
                continue;
            }
            if (std::find(seen.begin(), seen.end(), k) != seen.end()) {
                problem(where, "given twice (as " + k + " and its camelCase spelling)");
                continue;
            }
            seen.push_back(k);
            if (!it.value().is_null()) fn(k, it.value());
        }
    }

    bool want_string(const json& v, const std::string& where, std::string& out) {
        if (v.is_string()) return out = v.get<std::string>(), true;
        problem(where, "is " + describe(v) + "; a string was expected");
        return false;
    }

    void read_uint64(const json& v, const std::string& where, uint64_t& out) {
        int64_t unused = 0;
        std::string why = read_integer(v, false, UINT64_MAX, 0, unused, out);
        if (!why.empty()) problem(where, why);
    }

    // One element of kind k (a scalar kind) into the member of `a` for its family.
    void read_element(const json& v, AttrKind k, const std::string& where, Attribute& a) {
        int64_t s = 0;
        uint64_t u = 0;
        double r = 0;
        std::string why;
        switch (k) {
        case AttrKind::Double:
        case AttrKind::Float:
            if ((why = read_real(v, k == AttrKind::Float, r)).empty()) a.reals.push_back(r);
            break;
        case AttrKind::Int32:
        case AttrKind::Sint32:
        case AttrKind::Sfixed32:
            if ((why = read_integer(v, true, INT32_MAX, INT32_MIN, s, u)).empty()) a.ints.push_back(s);
            break;
        case AttrKind::Int64:
        case AttrKind::Sint64:
        case AttrKind::Sfixed64:
            if ((why = read_integer(v, true, INT64_MAX, INT64_MIN, s, u)).empty()) a.ints.push_back(s);
            break;
        case AttrKind::Uint32:
        case AttrKind::Fixed32:
            if ((why = read_integer(v, false, UINT32_MAX, 0, s, u)).empty()) a.uints.push_back(u);
            break;
        case AttrKind::Uint64:
        case AttrKind::Fixed64:
            if ((why = read_integer(v, false, UINT64_MAX, 0, s, u)).empty()) a.uints.push_back(u);
            break;
        case AttrKind::Bool:
            if (v.is_boolean())
                a.uints.push_back(v.get<bool>() ? 1 : 0);
            else
                why = "is " + describe(v) + "; true or false was expected";
            break;
        case AttrKind::String:
            if (v.is_string())
                a.strings.push_back(v.get<std::string>());
            else
                why = "is " + describe(v) + "; a string was expected";
            break;
        case AttrKind::Bytes: {
            std::optional<std::string> bytes;
            if (v.is_string()) bytes = base64_decode(v.get_ref<const std::string&>());
            if (bytes)
                a.strings.push_back(std::move(*bytes));
            else
                why = "is " + describe(v) + "; base64 text was expected";
            break;
        }
        default:
            why = "internal: not a scalar kind";
            break;
        }
        if (!why.empty()) problem(where, why);
    }

    void read_attr(const json& j, const std::string& path, Attribute& a) {
        if (!j.is_object()) return problem(path, "is " + describe(j) + "; an attribute object was expected");
        std::string where = path;
        auto name = j.find("name");
        if (name != j.end() && name->is_string()) where += " '" + name->get<std::string>() + "'";
        std::vector<std::string> members;
        for (auto it = j.begin(); it != j.end(); ++it) {
            std::string k = proto_name(it.key());
            if (k == "name" || k == "doc_string") {
                if (!it.value().is_null())
                    want_string(it.value(), where + "." + it.key(), k == "name" ? a.name : a.doc_string);
                continue;
            }
            auto kind = trace::attr_kind_from_name(k);
            if (!kind || *kind == AttrKind::None) {
                problem(where + "." + it.key(), "unknown key; expected name, doc_string or one value member "
                                                "(int64_val, string_val, bool_list, ...)");
                continue;
            }
            if (it.value().is_null()) continue;
            members.push_back(it.key());
            if (members.size() > 1) {
                problem(where, "has more than one value member (" + members[0] + " and " + it.key() +
                                   "); one was expected");
                continue;
            }
            a.kind = *kind;
            read_value(it.value(), *kind, where + "." + it.key(), a);
        }
    }

    void read_value(const json& v, AttrKind kind, const std::string& where, Attribute& a) {
        if (!trace::attr_kind_is_list(kind)) return read_element(v, kind, where, a);
        if (!v.is_object())
            return problem(where, "is " + describe(v) + "; an object {\"values\": [...]} was expected");
        auto elem = static_cast<AttrKind>(static_cast<int>(kind) - 1);
        for_each_key(v, where, {"values"}, [&](const std::string&, const json& list) {
            if (!list.is_array())
                return problem(where + ".values", "is " + describe(list) + "; an array was expected");
            for (size_t i = 0; i < list.size() && !full(); ++i)
                read_element(list[i], elem, where + ".values[" + std::to_string(i) + "]", a);
        });
    }

    void read_attrs(const json& v, const std::string& path, std::vector<Attribute>& out) {
        if (!v.is_array())
            return problem(path, "is " + describe(v) + "; an array of attributes was expected");
        out.resize(v.size());
        for (size_t i = 0; i < v.size() && !full(); ++i)
            read_attr(v[i], path + "[" + std::to_string(i) + "]", out[i]);
    }

    void read_metadata(const json& j, trace::GlobalMetadata& m) {
        if (!j.is_object())
            return problem("global_metadata", "is " + describe(j) + "; an object was expected");
        for_each_key(j, "global_metadata", {"version", "attr"}, [&](const std::string& k, const json& v) {
            if (k == "version")
                want_string(v, "global_metadata.version", m.version);
            else
                read_attrs(v, "global_metadata.attr", m.attrs);
        });
    }

    void read_ids(const json& v, const std::string& where, std::vector<uint64_t>& out) {
        if (!v.is_array()) return problem(where, "is " + describe(v) + "; an array of node ids was expected");
        out.resize(v.size());
        for (size_t i = 0; i < v.size(); ++i)
            read_uint64(v[i], where + "[" + std::to_string(i) + "]", out[i]);
    }

    void read_io(const json& v, const std::string& where, trace::IoInfo& io) {
        if (!v.is_object()) return problem(where, "is " + describe(v) + "; an object was expected");
        for_each_key(v, where, {"values", "shapes", "types"}, [&](const std::string& k, const json& s) {
            want_string(s, where + "." + k, k == "values" ? io.values : k == "shapes" ? io.shapes : io.types);
        });
    }

    void read_type(const json& v, const std::string& where, trace::Node& n) {
        uint64_t value = 0;
        if (v.is_string()) {
            auto t = trace::node_type_from_name(v.get<std::string>());
            if (!t)
                return problem(
                    where, "is " + describe(v) +
                               "; one of INVALID_NODE, METADATA_NODE, "
                               "MEM_LOAD_NODE, MEM_STORE_NODE, COMP_NODE, COMM_SEND_NODE, COMM_RECV_NODE, "
                               "COMM_COLL_NODE was expected");
            value = static_cast<uint64_t>(*t);
        } else {
            int64_t unused = 0;
            std::string why = read_integer(v, false, trace::kNodeTypeCount - 1, 0, unused, value);
            if (!why.empty()) return problem(where, why + " (a node type name or its number)");
        }
        n.type = static_cast<trace::NodeType>(value);
        n.raw_type = static_cast<uint32_t>(value);
    }

    void read_node(const json& j, size_t index, trace::Node& n) {
        std::string path = "nodes[" + std::to_string(index) + "]";
        if (!j.is_object()) return problem(path, "is " + describe(j) + "; a node object was expected");
        // Name the node by its id in every message when the id is readable.
        uint64_t id = 0;
        int64_t unused = 0;
        auto idv = j.find("id");
        if (idv != j.end() && !idv->is_null() && read_integer(*idv, false, UINT64_MAX, 0, unused, id).empty())
            path += " (id " + std::to_string(id) + ")";
        for_each_key(j, path,
                     {"id", "name", "type", "ctrl_deps", "data_deps", "start_time_micros", "duration_micros",
                      "inputs", "outputs", "attr"},
                     [&](const std::string& k, const json& v) {
                         std::string where = path + "." + k;
                         if (k == "id")
                             read_uint64(v, where, n.id);
                         else if (k == "name")
                             want_string(v, where, n.name);
                         else if (k == "type")
                             read_type(v, where, n);
                         else if (k == "ctrl_deps")
                             read_ids(v, where, n.ctrl_deps);
                         else if (k == "data_deps")
                             read_ids(v, where, n.data_deps);
                         else if (k == "start_time_micros")
                             read_uint64(v, where, n.start_time_micros);
                         else if (k == "duration_micros")
                             read_uint64(v, where, n.duration_micros);
                         else if (k == "inputs")
                             read_io(v, where, n.inputs);
                         else if (k == "outputs")
                             read_io(v, where, n.outputs);
                         else
                             read_attrs(v, where, n.attrs);
                     });
    }

    const std::string& source_;
    Status problems_;
};

} // namespace

// [SECTION] entry points

std::string trace_to_json(const trace::Trace& t) {
    Emitter e;
    e.open('{');
    e.key("global_metadata");
    e.open('{');
    if (!t.metadata.version.empty()) e.key("version"), e.str(t.metadata.version);
    write_attrs(e, t.metadata.attrs);
    e.close('}');
    e.key("nodes");
    e.open('[');
    for (const auto& n : t.nodes)
        write_node(e, n);
    e.close(']');
    e.close('}');
    return e.finish();
}

Result<trace::Trace> trace_from_json(std::string_view text, const std::string& source) {
    auto parsed = config::detail::parse_json_text(text, source);
    if (!parsed.is_ok()) return parsed.status();
    trace::Trace raw;
    JsonTraceReader reader(source);
    reader.read_top(parsed.value(), raw);
    Status st = reader.take();
    if (!st.is_ok()) return st;
    // Lift the typed fields (comm_size, is_cpu_op, ...) with the .et reader itself, through the wire form:
    // one implementation of those rules, so a JSON trace is accepted exactly when its .et would be.
    trace::ReadOptions opt;
    opt.keep_attributes = true;
    raw.verbatim_attrs = true; // a node without attributes in the JSON has none on the wire either
    return trace::decode_trace(trace::encode_trace(raw), source, opt);
}

} // namespace astrolabe::trace
