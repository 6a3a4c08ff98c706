#include "core/trace/collective_profile.h"

#include "core/base/json_writer.h"

#include <cstdio>

namespace astrolabe::trace {

uint64_t RankProfile::collective_total(CollectiveType t) const {
    uint64_t sum = 0;
    for (const auto& kv : collectives)
        if (kv.first.type == t) sum += kv.first.size * kv.second;
    return sum;
}

namespace {

uint64_t weighted(const std::map<uint64_t, uint64_t>& m) {
    uint64_t sum = 0;
    for (const auto& kv : m)
        sum += kv.first * kv.second;
    return sum;
}

std::string num(uint64_t v) {
    return std::to_string(v);
}

// Differences of two size -> count maps, named by `what(size)`.
template <typename K, typename Name>
void diff_counts(const std::map<K, uint64_t>& expected, const std::map<K, uint64_t>& actual, Name what,
                 std::vector<std::string>& out) {
    auto e = expected.begin();
    auto a = actual.begin();
    while (e != expected.end() || a != actual.end()) {
        if (a == actual.end() || (e != expected.end() && e->first < a->first)) {
            out.push_back(what(e->first) + ": count 0, expected " + num(e->second));
            ++e;
        } else if (e == expected.end() || a->first < e->first) {
            out.push_back(what(a->first) + ": count " + num(a->second) + ", expected 0");
            ++a;
        } else {
            if (e->second != a->second)
                out.push_back(what(e->first) + ": count " + num(a->second) + ", expected " + num(e->second));
            ++e, ++a;
        }
    }
}

} // namespace

uint64_t RankProfile::send_total() const {
    return weighted(sends);
}
uint64_t RankProfile::recv_total() const {
    return weighted(recvs);
}

RankProfile profile_of(const Trace& t, const GroupSizeFn& group_size) {
    RankProfile p;
    for (const Node& n : t.nodes) {
        switch (n.type) {
        case NodeType::Comp:
            p.num_ops += n.num_ops.value_or(0);
            break;
        case NodeType::CommColl: {
            auto c = n.collective();
            if (!c) break; // host-side or malformed: inspect reports those
            CollectiveKey k;
            k.type = *c;
            k.group_size = group_size ? group_size(n.pg_name.value_or("")) : 0;
            k.size = n.comm_size.value_or(0);
            p.collectives[k]++;
            break;
        }
        case NodeType::CommSend:
            p.sends[n.comm_size.value_or(0)]++;
            break;
        case NodeType::CommRecv:
            p.recvs[n.comm_size.value_or(0)]++;
            break;
        default:
            break;
        }
    }
    return p;
}

std::string describe(const CollectiveKey& k) {
    return std::string(collective_type_name(k.type)) + " group " + num(k.group_size) + " size " + num(k.size);
}

std::vector<std::string> profile_diff(const RankProfile& expected, const RankProfile& actual) {
    std::vector<std::string> out;
    diff_counts(expected.collectives, actual.collectives, describe, out);
    diff_counts(
        expected.sends, actual.sends, [](uint64_t s) { return "SEND size " + num(s); }, out);
    diff_counts(
        expected.recvs, actual.recvs, [](uint64_t s) { return "RECV size " + num(s); }, out);
    if (expected.num_ops != actual.num_ops)
        out.push_back("num_ops " + num(actual.num_ops) + ", expected " + num(expected.num_ops));
    return out;
}

std::vector<ProfileClass> group_profiles(const std::vector<RankProfile>& per_rank) {
    std::vector<ProfileClass> classes;
    for (uint32_t r = 0; r < per_rank.size(); ++r) {
        bool found = false;
        for (ProfileClass& c : classes) {
            if (c.profile == per_rank[r]) {
                c.ranks.push_back(r);
                found = true;
                break;
            }
        }
        if (!found) classes.push_back({{r}, per_rank[r]});
    }
    return classes;
}

std::string profiles_json(const std::vector<RankProfile>& per_rank, const std::string& source) {
    JsonWriter w(0);
    w.begin_object();
    w.field("schema", "astrolabe.collectives/1").field("source", source);
    w.field("npus", static_cast<uint64_t>(per_rank.size()));
    w.key("classes").begin_array();
    for (const ProfileClass& c : group_profiles(per_rank)) {
        w.begin_object().key("ranks").begin_array();
        for (uint32_t r : c.ranks)
            w.value(static_cast<uint64_t>(r));
        w.end_array();
        w.field("num_ops", c.profile.num_ops);
        w.key("collectives").begin_array();
        for (const auto& kv : c.profile.collectives) {
            w.begin_array().value(collective_type_name(kv.first.type));
            w.value(static_cast<uint64_t>(kv.first.group_size)).value(kv.first.size).value(kv.second);
            w.end_array();
        }
        w.end_array();
        for (const char* which : {"sends", "recvs"}) {
            w.key(which).begin_array();
            for (const auto& kv : (which[0] == 's' ? c.profile.sends : c.profile.recvs))
                w.begin_array().value(kv.first).value(kv.second).end_array();
            w.end_array();
        }
        w.end_object();
    }
    w.end_array().end_object();
    return w.str() + "\n";
}

std::string profiles_text(const std::vector<RankProfile>& per_rank) {
    std::string out;
    char line[256];
    for (const ProfileClass& c : group_profiles(per_rank)) {
        // "ranks 0-3, 6": consecutive runs folded.
        std::string ranks;
        for (size_t i = 0; i < c.ranks.size();) {
            size_t j = i;
            while (j + 1 < c.ranks.size() && c.ranks[j + 1] == c.ranks[j] + 1)
                ++j;
            ranks += (ranks.empty() ? "" : ", ") + num(c.ranks[i]) + (j > i ? "-" + num(c.ranks[j]) : "");
            i = j + 1;
        }
        out += (c.ranks.size() == 1 ? "rank " : "ranks ") + ranks + "\n";
        std::snprintf(line, sizeof line, "  num_ops %llu\n",
                      static_cast<unsigned long long>(c.profile.num_ops));
        out += line;
        for (int t = 0; t < kCollectiveTypeCount; ++t) {
            const uint64_t total = c.profile.collective_total(static_cast<CollectiveType>(t));
            if (!total) continue;
            std::snprintf(line, sizeof line, "  %-15s %llu in all\n",
                          collective_type_name(static_cast<CollectiveType>(t)),
                          static_cast<unsigned long long>(total));
            out += line;
        }
        out += "  type            group         size  count\n";
        for (const auto& kv : c.profile.collectives) {
            std::snprintf(line, sizeof line, "  %-15s %5u %12llu %6llu\n",
                          collective_type_name(kv.first.type), kv.first.group_size,
                          static_cast<unsigned long long>(kv.first.size),
                          static_cast<unsigned long long>(kv.second));
            out += line;
        }
        for (const char* which : {"SEND", "RECV"})
            for (const auto& kv : (which[0] == 'S' ? c.profile.sends : c.profile.recvs)) {
                std::snprintf(line, sizeof line, "  %-15s %5s %12llu %6llu\n", which, "-",
                              static_cast<unsigned long long>(kv.first),
                              static_cast<unsigned long long>(kv.second));
                out += line;
            }
    }
    return out;
}

} // namespace astrolabe::trace
