#pragma once

#include <optional>
#include <string_view>

namespace rwb::data {

// The three parts of a dataset: training, validation (reward search) and test,
// as in the first paper's §2.3.
enum class DataSplit { Train, Val, Test };

// "train", "val", "test".
std::string_view splitName(DataSplit split);

// The inverse of splitName; nullopt for any other word.
std::optional<DataSplit> parseSplit(std::string_view name);

} // namespace rwb::data
