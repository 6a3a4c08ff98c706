#include "core/trace/gzip.h"

#include <zlib.h>

namespace astrolabe::trace {

bool looks_gzipped(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

Result<std::string> gunzip(std::string_view bytes, size_t max_out) {
    z_stream zs{};
    // 16 + MAX_WBITS: expect a gzip header, not a raw zlib stream.
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return Status::error("gzip: cannot initialise inflate");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    zs.avail_in = static_cast<uInt>(bytes.size());
    std::string out;
    char buf[65536];
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf, sizeof buf - zs.avail_out);
        if (out.size() > max_out) {
            inflateEnd(&zs);
            return Status::error("gzip: decompressed size exceeds the limit of " + std::to_string(max_out) +
                                 " bytes");
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;
    }
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) return Status::error("gzip: the compressed stream is corrupt or truncated");
    return out;
}

} // namespace astrolabe::trace
