// The browser's Hardware tab without drawing: a described system (a preset, then edited field by field),
// a collective, and nccl-tests' busbw-against-size curve for it computed by collective-perf (the same
// engine path as `astrolabe collective-perf`). Builds natively so tests check it against the CLI.
#pragma once

#include "core/config/hardware_types.h"
#include "core/session/collective_perf.h"
#include "core/session/collective_perf_args.h"
#include "core/session/measured_compare.h"
#include "core/session/measured_fit.h"

#include <string>
#include <vector>

namespace astrolabe::ui {

struct HardwarePreset {
    const char* name;
    const char* json; // astrolabe.hardware/1
};
const std::vector<HardwarePreset>& hardware_presets();

class HardwareState {
public:
    HardwareState(); // the first preset

    void load_preset(int index);
    // A description from elsewhere (the scenario's, to edit here); preset() is then -1.
    void load(const config::HardwareConfig& hw);
    int preset() const { return preset_; }                // -1: not a preset (the scenario's, or a link's)
    const std::string& origin() const { return origin_; } // what a description that is no preset came from
    // The preset's keys were edited (the description is no longer the preset's): its name is then shown
    // as "<name> (edited)", so a curve is never labelled with a system it is not.
    bool edited() const { return edited_; }
    // What the tab calls its description: the preset's name (with " (edited)"), else its origin.
    std::string description_name() const;
    config::HardwareConfig& hardware() { return hw_; }
    hardware::CollOp& op() { return op_; }
    config::NcclAlgo& algo() { return algo_; }
    // nccl-tests' -d and -o: the element type (sizes are cut to whole elements per rank, as nccl-tests cuts
    // them) and the reduction; together they decide whether NVLink SHARP can reduce (nvls_reduces).
    hardware::NcclType& type() { return type_; }
    hardware::NcclRedOp& red_op() { return red_op_; }
    // The description has NVLink SHARP but this type and reduction cannot use it: the curve runs without.
    bool nvls_unusable() const;
    // The sizes, as nccl-tests' -b and -e spell them (8, 64K, 16G): the text typed, checked by changed().
    std::string& min_size() { return min_size_; }
    std::string& max_size() { return max_size_; }
    bool& reference() { return reference_; } // also draw ASTRA-sim's HGX-H100-validated curve

    // After any edit: validates the description with the CLI's parser and recomputes the curves.
    void changed();
    // The description as the JSON a file would hold (what `collective-perf --hardware` reads).
    std::string json() const;

    const Status& problems() const { return problems_; }
    const std::vector<CollectivePerfRow>& rows() const { return rows_; }
    const std::vector<CollectivePerfRow>& reference_rows() const { return reference_rows_; }
    // {"hardware": {...}, "op", "algo", "problems": [...], "rows": [...]} for scripts and tests.
    std::string summary_json() const;

    // The curve as collective-perf's arguments, and its share link ("perf=...", collective_perf_args.h).
    CollectivePerfArgs args() const;
    Result<std::string> share_fragment() const { return collective_perf_link_fragment(args()); }
    // Restores a curve from a link: the system (a preset's name when it is one), the collective, type,
    // reduction, sizes and contrast. Refused with the reasons, the tab unchanged, when anything is wrong.
    Status load_link(const std::string& link);

    // A table measured on the system (nccl-tests' output, `collective-perf --measured`'s FILE), set beside
    // the curve: the curve then runs the table's own sizes, type and reduction (the tab's fields show them
    // and stay fixed until clear_measured), and comparison() holds each row's measured time and the
    // errors. A text that is no table is refused with the reasons, the tab unchanged; a table of another
    // collective or system is kept and its problems shown until the form fits it (collective, nodes...).
    Status load_measured(const std::string& text, const std::string& name);
    void clear_measured();
    bool has_measured() const { return !measured_name_.empty(); }
    const std::string& measured_name() const { return measured_name_; }
    const MeasuredComparison& comparison() const { return comparison_; }
    // Sets the description's net_efficiency to what fits the measured table (collective-perf --fit's
    // fit_net_efficiency on the same rows) and recomputes; refused with the reason, the description
    // unchanged. fit() holds the last fit and fit_problem() the last refusal, until the next edit.
    Status fit_measured();
    const NetEfficiencyFit* fit() const { return has_fit_ ? &fit_ : nullptr; }
    const std::string& fit_problem() const { return fit_problem_; }

private:
    int preset_ = 0;
    bool edited_ = false; // changed() keeps it
    std::string origin_ = "(the scenario's)";
    config::HardwareConfig hw_;
    hardware::CollOp op_ = hardware::CollOp::AllReduce;
    config::NcclAlgo algo_ = config::NcclAlgo::Auto;
    hardware::NcclType type_ = hardware::NcclType::Float;
    hardware::NcclRedOp red_op_ = hardware::NcclRedOp::Sum;
    std::string min_size_ = "8", max_size_ = "16G";
    bool reference_ = false;
    Status problems_;
    std::vector<CollectivePerfRow> rows_;
    std::vector<CollectivePerfRow> reference_rows_;
    std::string measured_name_; // "" = no measured table
    hardware::MeasuredTable measured_;
    MeasuredComparison comparison_;
    NetEfficiencyFit fit_;
    bool has_fit_ = false;
    std::string fit_problem_;
};

// window.astrolabe.collectivePerf: the arguments as text -> collective-perf's JSON (the CLI's --json), or
// every problem, as collective_perf_request names them.
Result<std::string> collective_perf_from_text(const CollectivePerfArgs& args);

} // namespace astrolabe::ui
