#include "core/generate/parallel_layout.h"

#include "core/base/json_writer.h"

namespace astrolabe::generate {

const char* group_kind_name(GroupKind k) {
    switch (k) {
    case GroupKind::Data:
        return "data";
    case GroupKind::Tensor:
        return "tensor";
    case GroupKind::Context:
        return "context";
    case GroupKind::Expert:
        return "expert";
    case GroupKind::ExpertData:
        return "expert-data";
    }
    return "?";
}

ParallelLayout::ParallelLayout(const TransformerParams& p)
    : dp_(p.dp), tp_(p.tp), sp_(p.sp), pp_(p.pp), ep_(p.experts ? p.ep : 1) {
    pp_stride_ = dp_ * tp_ * sp_;
    if (p.rank_order == RankOrder::TpFirst) { // tp, sp (Megatron's cp), dp, pp
        tp_stride_ = 1;
        sp_stride_ = tp_;
        dp_stride_ = tp_ * sp_;
    } else { // dp, tp, sp, pp
        dp_stride_ = 1;
        tp_stride_ = dp_;
        sp_stride_ = dp_ * tp_;
    }
}

RankCoord ParallelLayout::coord(uint32_t rank) const {
    RankCoord c;
    c.dp = rank / dp_stride_ % dp_;
    c.tp = rank / tp_stride_ % tp_;
    c.sp = rank / sp_stride_ % sp_;
    c.pp = rank / pp_stride_;
    return c;
}

uint32_t ParallelLayout::size(GroupKind k) const {
    switch (k) {
    case GroupKind::Data:
        return dp_;
    case GroupKind::Tensor:
        return tp_;
    case GroupKind::Context:
        return sp_;
    case GroupKind::Expert:
        return ep_;
    case GroupKind::ExpertData:
        return ep_ > 1 ? dp_ / ep_ : 1;
    }
    return 1;
}

uint32_t ParallelLayout::count(GroupKind k) const {
    return size(k) > 1 ? npus() / size(k) : 0;
}

uint32_t ParallelLayout::index(GroupKind k, const RankCoord& c) const {
    switch (k) {
    case GroupKind::Data:
        return c.tp + tp_ * (c.sp + sp_ * c.pp);
    case GroupKind::Tensor:
        return c.dp + dp_ * (c.sp + sp_ * c.pp);
    case GroupKind::Context:
        return c.dp + dp_ * (c.tp + tp_ * c.pp);
    case GroupKind::Expert:
        return c.dp / ep_ + (dp_ / ep_) * (c.tp + tp_ * (c.sp + sp_ * c.pp));
    case GroupKind::ExpertData:
        return c.dp % ep_ + ep_ * (c.tp + tp_ * (c.sp + sp_ * c.pp));
    }
    return 0;
}

uint32_t ParallelLayout::first_id(GroupKind k) const {
    uint32_t id = 1;
    for (int i = 0; i < static_cast<int>(k); ++i)
        id += count(static_cast<GroupKind>(i));
    return id;
}

std::string ParallelLayout::pg_name(GroupKind k, uint32_t rank) const {
    if (size(k) <= 1) return std::string();
    return std::to_string(first_id(k) + index(k, coord(rank)));
}

int ParallelLayout::kind_of(const std::string& pg) const {
    if (pg.empty() || pg.size() > 9) return -1;
    uint32_t id = 0;
    for (char ch : pg) {
        if (ch < '0' || ch > '9') return -1;
        id = id * 10 + uint32_t(ch - '0');
    }
    for (int i = 0; i < kGroupKinds; ++i) {
        auto k = static_cast<GroupKind>(i);
        if (id >= first_id(k) && id < first_id(k) + count(k)) return i;
    }
    return -1;
}

bool ParallelLayout::has_groups() const {
    for (int i = 0; i < kGroupKinds; ++i)
        if (size(static_cast<GroupKind>(i)) > 1) return true;
    return false;
}

std::string ParallelLayout::comm_groups_json() const {
    JsonWriter w(0);
    w.begin_object();
    std::vector<std::vector<uint32_t>> members;
    for (int i = 0; i < kGroupKinds; ++i) {
        auto k = static_cast<GroupKind>(i);
        if (size(k) <= 1) continue;
        members.assign(count(k), {});
        // Ranks in increasing order, so each member list comes out sorted.
        for (uint32_t r = 0; r < npus(); ++r)
            members[index(k, coord(r))].push_back(r);
        const uint32_t first = first_id(k);
        for (uint32_t g = 0; g < members.size(); ++g) {
            w.key(std::to_string(first + g));
            w.begin_array();
            for (uint32_t r : members[g])
                w.value(static_cast<uint64_t>(r));
            w.end_array();
        }
    }
    w.end_object();
    return w.str();
}

} // namespace astrolabe::generate
