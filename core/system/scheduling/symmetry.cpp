#include "core/system/scheduling/symmetry.h"

#include "core/base/hash_mix.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace astrolabe {

// [SECTION] the translation group

RankSymmetry::RankSymmetry(std::vector<uint32_t> sizes, uint32_t dim_mask, std::vector<uint32_t> digit_dims)
    : sizes_(std::move(sizes)), digit_dims_(std::move(digit_dims)), mask_(dim_mask) {
    strides_.resize(sizes_.size());
    for (size_t d = 0; d < sizes_.size(); ++d) {
        strides_[d] = npus_;
        npus_ *= sizes_[d];
        if (mask_ & (1u << d)) order_ *= sizes_[d];
    }
    if (digit_dims_.empty())
        for (uint32_t d = 0; d < sizes_.size(); ++d)
            digit_dims_.push_back(d);
}

uint32_t RankSymmetry::representative(uint32_t npu) const {
    if (npu < offset_.size()) return npu - offset_[npu];
    uint32_t rep = npu;
    for (size_t d = 0; d < sizes_.size(); ++d)
        if (mask_ & (1u << d)) rep -= ((npu / strides_[d]) % sizes_[d]) * strides_[d];
    return rep;
}

uint32_t RankSymmetry::shift(uint32_t x, uint32_t by, bool backward) const {
    if (x < offset_.size() && by < offset_.size()) {
        const size_t pair = size_t(element_[x]) * order_ + element_[by];
        return x - offset_[x] + (backward ? difference_[pair] : sum_[pair]);
    }
    return shift_arith(x, by, backward);
}

void RankSymmetry::precompute() {
    if (!active() || npus_ > (1u << 22) || order_ > 256) return;
    // The translations, indexed by their symmetric digits (lowest first), each as its offset from NPU 0.
    std::vector<uint32_t> element_offset(order_);
    offset_.assign(npus_, 0);
    element_.assign(npus_, 0);
    for (uint32_t x = 0; x < npus_; ++x) {
        uint32_t off = 0, index = 0, radix = 1;
        for (size_t d = 0; d < sizes_.size(); ++d) {
            if (!(mask_ & (1u << d))) continue;
            const uint32_t c = (x / strides_[d]) % sizes_[d];
            off += c * strides_[d];
            index += c * radix;
            radix *= sizes_[d];
        }
        offset_[x] = off;
        element_[x] = index;
        element_offset[index] = off;
    }
    sum_.assign(size_t(order_) * order_, 0);
    difference_.assign(size_t(order_) * order_, 0);
    for (uint32_t i = 0; i < order_; ++i)
        for (uint32_t j = 0; j < order_; ++j) {
            sum_[size_t(i) * order_ + j] = shift_arith(element_offset[i], element_offset[j], false);
            difference_[size_t(i) * order_ + j] = shift_arith(element_offset[i], element_offset[j], true);
        }
}

uint32_t RankSymmetry::shift_arith(uint32_t x, uint32_t by, bool backward) const {
    uint32_t out = x;
    for (size_t d = 0; d < sizes_.size(); ++d) {
        if (!(mask_ & (1u << d))) continue;
        uint32_t n = sizes_[d];
        uint32_t c = (x / strides_[d]) % n;
        uint32_t step = (by / strides_[d]) % n;
        uint32_t moved = backward ? (c + n - step) % n : (c + step) % n;
        out = out - c * strides_[d] + moved * strides_[d];
    }
    return out;
}

std::vector<uint32_t> RankSymmetry::generators() const {
    std::vector<uint32_t> out;
    for (size_t d = 0; d < sizes_.size(); ++d)
        if (mask_ & (1u << d)) out.push_back(strides_[d]);
    return out;
}

std::vector<uint32_t> RankSymmetry::class_of(uint32_t rep) const {
    std::vector<uint32_t> out{rep};
    for (size_t d = 0; d < sizes_.size(); ++d) {
        if (!(mask_ & (1u << d))) continue;
        size_t before = out.size();
        for (uint32_t c = 1; c < sizes_[d]; ++c)
            for (size_t i = 0; i < before; ++i)
                out.push_back(out[i] + c * strides_[d]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string RankSymmetry::describe() const {
    std::string along;
    for (size_t k = 0; k < sizes_.size(); ++k) {
        if (!(mask_ & (1u << k))) continue;
        uint32_t dim = digit_dims_[k];
        bool whole =
            (k == 0 || digit_dims_[k - 1] != dim) && (k + 1 == sizes_.size() || digit_dims_[k + 1] != dim);
        along += along.empty() ? "" : ", ";
        along += "dimension " + std::to_string(dim);
        if (!whole) {
            uint32_t first = k;
            while (first > 0 && digit_dims_[first - 1] == dim)
                --first;
            along += " (" + std::to_string(sizes_[k]) + " positions " +
                     std::to_string(strides_[k] / strides_[first]) + " apart)";
        }
    }
    return std::to_string(npus_ / order_) + " class(es) of " + std::to_string(order_) +
           " NPUs; translations along " + along;
}

// [SECTION] group index

GroupLookup::GroupLookup(const GroupTable& groups) : groups_(groups) {
    for (size_t i = 1; i < groups.groups.size(); ++i)
        by_hash_[set_hash(groups.groups[i].ranks)].push_back(static_cast<int>(i));
}

int GroupLookup::find(std::vector<uint32_t> members) const {
    auto it = by_hash_.find(set_hash(members));
    if (it == by_hash_.end()) return -1;
    std::sort(members.begin(), members.end());
    std::vector<uint32_t> other;
    for (int i : it->second) {
        other = groups_.groups[i].ranks;
        if (other.size() != members.size()) continue;
        std::sort(other.begin(), other.end());
        if (other == members) return i;
    }
    return -1;
}

uint64_t GroupLookup::set_hash(const std::vector<uint32_t>& members) {
    uint64_t h = members.size();
    for (uint32_t r : members) // a sum: the same set in any order has the same hash
        h += mix64(r + 0x9E3779B97F4A7C15ull);
    return h;
}

} // namespace astrolabe
