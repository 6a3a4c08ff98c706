#include "core/trace/gzip.h"

#include <zlib.h>

namespace astrolabe::trace {

bool looks_gzipped(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

InflateEnd inflate_bounded(std::string_view bytes, int window_bits, size_t max_out, std::string& out) {
    z_stream zs{};
    if (inflateInit2(&zs, window_bits) != Z_OK) return InflateEnd::NoInit;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = static_cast<uInt>(bytes.size());
    out.clear();
    char buf[65536];
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf, sizeof buf - zs.avail_out);
        if (out.size() > max_out) {
            inflateEnd(&zs);
            return InflateEnd::TooLarge;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;
    }
    inflateEnd(&zs);
    return rc == Z_STREAM_END ? InflateEnd::Done : InflateEnd::Corrupt;
}

Result<std::string> gunzip(std::string_view bytes, size_t max_out) {
    std::string out;
    // 16 + MAX_WBITS: expect a gzip header, not a raw zlib stream.
    switch (inflate_bounded(bytes, 16 + MAX_WBITS, max_out, out)) {
    case InflateEnd::Done:
        return out;
    case InflateEnd::TooLarge:
        return Status::error("gzip: decompressed size exceeds the limit of " + std::to_string(max_out) +
                             " bytes");
    case InflateEnd::Corrupt:
        break;
    case InflateEnd::NoInit:
        return Status::error("gzip: cannot initialise inflate");
    }
    return Status::error("gzip: the compressed stream is corrupt or truncated");
}

} // namespace astrolabe::trace
