#include "core/session/share_link.h"

#include "core/base/base64.h"
#include "core/trace/gzip.h"

#include <zlib.h>

namespace astrolabe {

std::optional<std::string_view> share_link_param(std::string_view link, std::string_view key) {
    const size_t hash = link.find('#');
    std::string_view frag = hash == std::string_view::npos ? link : link.substr(hash + 1);
    while (!frag.empty()) {
        const size_t amp = frag.find('&');
        const std::string_view part = frag.substr(0, amp);
        if (part.substr(0, key.size()) == key) return part.substr(key.size());
        if (amp == std::string_view::npos) break;
        frag.remove_prefix(amp + 1);
    }
    return std::nullopt;
}

std::string encode_share_fragment(std::string_view json) {
    z_stream zs{};
    // -15: raw deflate (no zlib header), as the browser's CompressionStream("deflate-raw") also writes.
    deflateInit2(&zs, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, static_cast<uLong>(json.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(json.data()));
    zs.avail_in = static_cast<uInt>(json.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH); // one call suffices: the output holds deflateBound bytes
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return "s=" + base64url_encode(out);
}

Result<std::string> decode_share_link(std::string_view link) {
    const auto value = share_link_param(link, "s=");
    if (!value) return Status::error("share link: no scenario in it; a fragment #s=<data> was expected");
    if (value->empty()) return Status::error("share link: the s= part is empty");
    auto packed = base64_decode(*value);
    if (!packed)
        return Status::error("share link: the s= part is not base64url text (it may have been cut short)");

    std::string out;
    // -15: raw deflate, as encode_share_fragment writes it.
    switch (trace::inflate_bounded(*packed, -15, kMaxSharedScenario, out)) {
    case trace::InflateEnd::Done:
        return out;
    case trace::InflateEnd::TooLarge:
        return Status::error("share link: the scenario inflates beyond " +
                             std::to_string(kMaxSharedScenario >> 20) + " MiB; refused");
    case trace::InflateEnd::Corrupt:
        break;
    case trace::InflateEnd::NoInit:
        return Status::error("share link: cannot initialise inflate");
    }
    return Status::error("share link: the compressed scenario is corrupt or cut short (copy the whole link)");
}

} // namespace astrolabe
