// The search log as data (SearchRun::logged_point and friends, search_run.h): what a front end draws
// while a search runs, without parsing the log lines back.
#include "core/search/search_state.h"

namespace astrolabe::search {

size_t SearchRun::logged() const {
    return impl_->log.size();
}

SearchRun::LoggedPoint SearchRun::logged_point(size_t i) const {
    const Record& r = impl_->log.at(i);
    LoggedPoint p;
    p.index = r.index;
    p.status = r.status;
    p.step_time_ns = r.step_time_ns;
    p.network_cost = r.network_cost;
    p.objective = r.objective;
    for (size_t k = 0; k < r.point.size(); ++k)
        p.knobs +=
            impl_->spec.knobs[k].path.text + " = " + impl_->spec.knobs[k].value_text[r.point[k]] + "\n";
    return p;
}

std::string SearchRun::point_scenario_json(size_t i) const {
    return impl_->scenario_of(impl_->log.at(i).point).dump(2) + "\n";
}

std::vector<size_t> SearchRun::pareto_points() const {
    return pareto_indices(impl_->log);
}

} // namespace astrolabe::search
