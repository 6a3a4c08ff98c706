// Status and Result<T>: errors as values at module boundaries.
//
// Loading and configuration code returns these instead of throwing or exiting, so the CLI can print the
// message and exit 2 and the browser can show it as-is. A Status may carry several problems at once (config
// parsers report everything they find); message() joins them one per line.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace astrolabe {

class Status {
public:
    Status() = default;
    static Status ok() { return Status(); }
    static Status error(std::string message) {
        Status s;
        s.problems_.push_back(std::move(message));
        return s;
    }

    bool is_ok() const { return problems_.empty(); }
    explicit operator bool() const { return is_ok(); }

    // One line per problem, in the order they were found.
    std::string message() const {
        std::string out;
        for (size_t i = 0; i < problems_.size(); ++i) {
            if (i) out += '\n';
            out += problems_[i];
        }
        return out;
    }
    const std::vector<std::string>& problems() const { return problems_; }

    void add(std::string problem) { problems_.push_back(std::move(problem)); }
    void merge(const Status& other) {
        problems_.insert(problems_.end(), other.problems_.begin(), other.problems_.end());
    }

private:
    std::vector<std::string> problems_;
};

// A value or the Status explaining why there is none.
template <typename T>
class Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Status status) : status_(std::move(status)) {}

    bool is_ok() const { return value_.has_value(); }
    explicit operator bool() const { return is_ok(); }
    const Status& status() const { return status_; }
    T& value() & { return *value_; }
    const T& value() const& { return *value_; }
    T&& value() && { return std::move(*value_); }
    T* operator->() { return &*value_; }
    const T* operator->() const { return &*value_; }

private:
    std::optional<T> value_;
    Status status_;
};

} // namespace astrolabe
