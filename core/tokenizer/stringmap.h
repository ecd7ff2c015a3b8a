#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rwb::tokenizer {

// Hashes std::string and std::string_view alike, so that maps keyed by std::string can be
// searched with a string_view without building a string.
struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

// An unordered_map from strings that find() accepts a std::string_view for.
template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringHash, std::equal_to<>>;

} // namespace rwb::tokenizer
